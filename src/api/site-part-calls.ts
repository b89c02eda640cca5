// The calls every part of a site's structure (sections, section groups, site spaces) makes the same
// way: list a page or to the end, send a body to the collection or to one item (create, change,
// move), and delete (205, or 204 when there was nothing to delete).
import type { z } from 'zod';
import { type ApiPath, apiPath } from './api-path.js';
import type { Query } from './build-query-string.js';
import type { CallOptions, ListAllOptions, ListOptions } from './call-options.js';
import type { HttpTransport } from './http-transport.js';
import { PagedList } from './paged-list.js';
import { type Page, pageOf } from './schemas/page-of.js';
import { DELETED_STATUSES, noContentSchema } from './site-path.js';

export class SitePartCalls<T, O extends ListOptions = ListOptions> {
  private readonly list: PagedList<Page<T>, O>;

  constructor(
    private readonly transport: HttpTransport,
    /** The collection's path in a site: `.../sites/{siteId}/sections`. */
    private readonly base: (orgId: string, siteId: string) => ApiPath,
    private readonly schema: z.ZodType<T>,
    filters?: (options: ListAllOptions<O>) => Query,
  ) {
    this.list = new PagedList<Page<T>, O>(transport, pageOf(schema), filters);
  }

  /** The collection, or the item `id` in it. */
  path(orgId: string, siteId: string, id?: string): ApiPath {
    const base = this.base(orgId, siteId);
    return id === undefined ? base : apiPath`${base}/${id}`;
  }

  page(orgId: string, siteId: string, options: O): Promise<Page<T>> {
    return this.list.page(this.path(orgId, siteId), options);
  }

  all(orgId: string, siteId: string, options: ListAllOptions<O>): AsyncGenerator<T, void, undefined> {
    return this.list.all(this.path(orgId, siteId), options);
  }

  /** A body sent to `path`, answered with the item. */
  send(method: 'POST' | 'PATCH', path: ApiPath, body: unknown, options: CallOptions): Promise<T> {
    return this.transport.request(method, path, { body, signal: options.signal, schema: this.schema });
  }

  async delete(path: ApiPath, options: CallOptions): Promise<void> {
    await this.transport.request('DELETE', path, {
      signal: options.signal,
      schema: noContentSchema,
      expect: DELETED_STATUSES,
    });
  }
}
