// Spaces: their life cycle (create, delete, restore within 7 days), their place (move, transfer),
// search in their content, and the link check of their main content.
import { apiPath } from './api-path.js';
import type { CallOptions, LinkListOptions, ListAllOptions, ListOptions } from './call-options.js';
import type { HttpTransport } from './http-transport.js';
import { listAll } from './list-all.js';
import {
  type LinkCheckItem,
  type LinkCheckList,
  linkCheckListSchema,
} from './schemas/link-check-list-schema.js';
import { noContentSchema } from './schemas/no-content-schema.js';
import { type Page, pageOf } from './schemas/page-of.js';
import { type SearchResult, searchResultSchema } from './schemas/search-result-schema.js';
import type { EDIT_MODES, Role } from './schemas/service-enums.js';
import { type Space, spaceSchema } from './schemas/space-schema.js';

const searchResultPageSchema = pageOf(searchResultSchema);

export interface SpacePatch {
  title?: string;
  emoji?: string;
  editMode?: (typeof EDIT_MODES)[number];
  defaultLevel?: Role | null;
}

/** A sibling to place the space before or after. */
export interface SpacePosition {
  before?: { type: 'space'; space: string };
  after?: { type: 'space'; space: string };
}

export interface SpaceMove {
  /** The collection to move into, or null for the organization's top level. */
  parent?: string | null;
  position?: SpacePosition;
}

export class SpacesApi {
  constructor(private readonly transport: HttpTransport) {}

  /** `POST /orgs/{o}/spaces`: 201. */
  create(orgId: string, space: { title: string }, options: CallOptions = {}): Promise<Space> {
    return this.transport.request('POST', apiPath`/orgs/${orgId}/spaces`, {
      body: space,
      signal: options.signal,
      schema: spaceSchema,
    });
  }

  /** `GET /spaces/{s}`; `shareKey` resolves published addresses of share-link spaces. */
  get(spaceId: string, options: CallOptions & { shareKey?: string | undefined } = {}): Promise<Space> {
    return this.transport.request('GET', apiPath`/spaces/${spaceId}`, {
      query: { shareKey: options.shareKey },
      signal: options.signal,
      schema: spaceSchema,
    });
  }

  /** `PATCH /spaces/{s}`. */
  patch(spaceId: string, changes: SpacePatch, options: CallOptions = {}): Promise<Space> {
    return this.transport.request('PATCH', apiPath`/spaces/${spaceId}`, {
      body: changes,
      signal: options.signal,
      schema: spaceSchema,
    });
  }

  /** `DELETE /spaces/{s}`: 205; restorable for 7 days. */
  delete(spaceId: string, options: CallOptions = {}): Promise<void> {
    return this.transport.request('DELETE', apiPath`/spaces/${spaceId}`, {
      signal: options.signal,
      schema: noContentSchema,
      expect: [204, 205],
    });
  }

  /** `POST /spaces/{s}/restore`: only within 7 days of deletion. */
  restore(spaceId: string, options: CallOptions = {}): Promise<Space> {
    return this.transport.request('POST', apiPath`/spaces/${spaceId}/restore`, {
      signal: options.signal,
      schema: spaceSchema,
    });
  }

  /** `POST /spaces/{s}/duplicate`: 201, the copy. */
  duplicate(spaceId: string, options: CallOptions = {}): Promise<Space> {
    return this.transport.request('POST', apiPath`/spaces/${spaceId}/duplicate`, {
      signal: options.signal,
      schema: spaceSchema,
    });
  }

  /** `POST /spaces/{s}/move`. */
  move(spaceId: string, move: SpaceMove, options: CallOptions = {}): Promise<Space> {
    return this.transport.request('POST', apiPath`/spaces/${spaceId}/move`, {
      body: move,
      signal: options.signal,
      schema: spaceSchema,
    });
  }

  /** `POST /spaces/{s}/transfer`: to another organization. */
  transfer(spaceId: string, target: { organization: string }, options: CallOptions = {}): Promise<Space> {
    return this.transport.request('POST', apiPath`/spaces/${spaceId}/transfer`, {
      body: target,
      signal: options.signal,
      schema: spaceSchema,
    });
  }

  /** `GET /spaces/{s}/search`: `query` is required, at most 512 characters. */
  search(spaceId: string, query: string, options: ListOptions = {}): Promise<Page<SearchResult>> {
    return this.transport.request('GET', apiPath`/spaces/${spaceId}/search`, {
      query: { query, page: options.page, limit: options.limit },
      signal: options.signal,
      schema: searchResultPageSchema,
    });
  }

  searchAll(
    spaceId: string,
    query: string,
    options: ListAllOptions<ListOptions> = {},
  ): AsyncGenerator<SearchResult, void, undefined> {
    return listAll(apiPath`/spaces/${spaceId}/search`, (cursor) =>
      this.search(spaceId, query, { ...options, ...cursor }),
    );
  }

  /** `GET /spaces/{s}/links`: one page of the main content's links, and `stats` over all of them. */
  listLinks(spaceId: string, options: LinkListOptions = {}): Promise<LinkCheckList> {
    return this.transport.request('GET', apiPath`/spaces/${spaceId}/links`, {
      query: { status: options.status, page: options.page, limit: options.limit },
      signal: options.signal,
      schema: linkCheckListSchema,
    });
  }

  listLinksAll(
    spaceId: string,
    options: ListAllOptions<LinkListOptions> = {},
  ): AsyncGenerator<LinkCheckItem, void, undefined> {
    return listAll(apiPath`/spaces/${spaceId}/links`, (cursor) =>
      this.listLinks(spaceId, { ...options, ...cursor }),
    );
  }
}
