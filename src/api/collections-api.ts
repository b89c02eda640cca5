// Collections of an organization: listing, creating, reading, changing and deleting them, the spaces
// in one, and moving one (to another parent, to a place among its siblings) or transferring it to
// another organization.
import { apiPath } from './api-path.js';
import type { CallOptions, ListAllOptions, ListOptions } from './call-options.js';
import type { HttpTransport } from './http-transport.js';
import { PagedList } from './paged-list.js';
import { type Collection, type ContentLevel, collectionSchema } from './schemas/collection-schema.js';
import { noContentSchema } from './schemas/no-content-schema.js';
import { type Page, pageOf } from './schemas/page-of.js';
import { type Space, spaceSchema } from './schemas/space-schema.js';

export interface CollectionListOptions extends ListOptions {
  /** Default true: every collection, nested ones included; false lists the top level only. */
  nested?: boolean | undefined;
}

export interface CollectionCreate {
  /** At most 50 characters. */
  title?: string;
  /** The parent collection's id; the organization's top level when absent. */
  parent?: string;
}

export interface CollectionPatch {
  /** At most 50 characters. */
  title?: string;
  /** At most 100 characters. */
  description?: string;
  defaultLevel?: ContentLevel;
}

/** A sibling named by a move: a space or a collection. */
export type ContentPointer = { type: 'space'; space: string } | { type: 'collection'; collection: string };

export interface CollectionMove {
  /** Another collection's id, or null for the organization's top level; the same parent when absent. */
  parent?: string | null;
  /** Where among the new parent's children; last when absent. */
  position?: { before?: ContentPointer; after?: ContentPointer };
}

export class CollectionsApi {
  private readonly collections: PagedList<Page<Collection>, CollectionListOptions>;
  private readonly spaces: PagedList<Page<Space>>;

  constructor(private readonly transport: HttpTransport) {
    this.collections = new PagedList(transport, pageOf(collectionSchema), (options) => ({
      nested: options.nested,
    }));
    this.spaces = new PagedList(transport, pageOf(spaceSchema));
  }

  /** `GET /orgs/{o}/collections`. */
  list(orgId: string, options: CollectionListOptions = {}): Promise<Page<Collection>> {
    return this.collections.page(apiPath`/orgs/${orgId}/collections`, options);
  }

  listAll(
    orgId: string,
    options: ListAllOptions<CollectionListOptions> = {},
  ): AsyncGenerator<Collection, void, undefined> {
    return this.collections.all(apiPath`/orgs/${orgId}/collections`, options);
  }

  /** `POST /orgs/{o}/collections`: 201. */
  create(orgId: string, collection: CollectionCreate = {}, options: CallOptions = {}): Promise<Collection> {
    return this.transport.request('POST', apiPath`/orgs/${orgId}/collections`, {
      body: collection,
      signal: options.signal,
      schema: collectionSchema,
      expect: [201],
    });
  }

  /** `GET /collections/{c}`. */
  get(collectionId: string, options: CallOptions = {}): Promise<Collection> {
    return this.transport.request('GET', apiPath`/collections/${collectionId}`, {
      signal: options.signal,
      schema: collectionSchema,
    });
  }

  /** `PATCH /collections/{c}`. */
  update(collectionId: string, patch: CollectionPatch, options: CallOptions = {}): Promise<Collection> {
    return this.transport.request('PATCH', apiPath`/collections/${collectionId}`, {
      body: patch,
      signal: options.signal,
      schema: collectionSchema,
    });
  }

  /** `DELETE /collections/{c}`: 205 (204 when it was already gone). */
  delete(collectionId: string, options: CallOptions = {}): Promise<void> {
    return this.transport.request('DELETE', apiPath`/collections/${collectionId}`, {
      signal: options.signal,
      schema: noContentSchema,
      expect: [204, 205],
    });
  }

  /** `GET /collections/{c}/spaces`: the spaces directly in the collection. */
  listSpaces(collectionId: string, options: ListOptions = {}): Promise<Page<Space>> {
    return this.spaces.page(apiPath`/collections/${collectionId}/spaces`, options);
  }

  listSpacesAll(
    collectionId: string,
    options: ListAllOptions<ListOptions> = {},
  ): AsyncGenerator<Space, void, undefined> {
    return this.spaces.all(apiPath`/collections/${collectionId}/spaces`, options);
  }

  /** `POST /collections/{c}/move`: give a parent, a position or both. */
  move(collectionId: string, move: CollectionMove, options: CallOptions = {}): Promise<Collection> {
    return this.transport.request('POST', apiPath`/collections/${collectionId}/move`, {
      body: move,
      signal: options.signal,
      schema: collectionSchema,
    });
  }

  /** `POST /collections/{c}/transfer`: to another organization, where the token is admin too. */
  transfer(collectionId: string, organizationId: string, options: CallOptions = {}): Promise<Collection> {
    return this.transport.request('POST', apiPath`/collections/${collectionId}/transfer`, {
      body: { organization: organizationId },
      signal: options.signal,
      schema: collectionSchema,
    });
  }
}
