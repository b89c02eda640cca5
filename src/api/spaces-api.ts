// Spaces: creating one, reading one (its current revision), renaming it, moving it into a
// collection, deleting it, and the link check of its main content.
import { apiPath } from './api-path.js';
import type { CallOptions, LinkListOptions } from './call-options.js';
import type { HttpTransport } from './http-transport.js';
import { PagedList } from './paged-list.js';
import { type LinkCheckList, linkCheckListSchema } from './schemas/link-check-list-schema.js';
import { noContentSchema } from './schemas/no-content-schema.js';
import { type Space, spaceSchema } from './schemas/space-schema.js';

export class SpacesApi {
  private readonly links: PagedList<LinkCheckList, LinkListOptions>;

  constructor(private readonly transport: HttpTransport) {
    this.links = new PagedList(transport, linkCheckListSchema, (options) => ({ status: options.status }));
  }

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

  /** `PATCH /spaces/{s}`: its title (the rest of the body is not used by docsync). */
  update(spaceId: string, patch: { title: string }, options: CallOptions = {}): Promise<Space> {
    return this.transport.request('PATCH', apiPath`/spaces/${spaceId}`, {
      body: patch,
      signal: options.signal,
      schema: spaceSchema,
    });
  }

  /** `POST /spaces/{s}/move`: into a collection (its id), or to the organization's top level (null). */
  move(spaceId: string, parent: string | null, options: CallOptions = {}): Promise<Space> {
    return this.transport.request('POST', apiPath`/spaces/${spaceId}/move`, {
      body: { parent },
      signal: options.signal,
      schema: spaceSchema,
    });
  }

  /** `DELETE /spaces/{s}`: 205; the service keeps it for 7 days, when `POST .../restore` brings it back. */
  delete(spaceId: string, options: CallOptions = {}): Promise<void> {
    return this.transport.request('DELETE', apiPath`/spaces/${spaceId}`, {
      signal: options.signal,
      schema: noContentSchema,
      expect: [204, 205],
    });
  }

  /** `GET /spaces/{s}/links`: one page of the main content's links, and `stats` over all of them. */
  listLinks(spaceId: string, options: LinkListOptions = {}): Promise<LinkCheckList> {
    return this.links.page(apiPath`/spaces/${spaceId}/links`, options);
  }
}
