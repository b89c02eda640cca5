// One list operation of the service, read a page at a time (`page`, the caller's cursor and size)
// or to its end (`all`, the largest pages, through list-all.ts). A resource group keeps one per
// list it offers, so that its `listX` and `listXAll` differ only in which of the two they call.
import type { z } from 'zod';
import type { ApiPath } from './api-path.js';
import type { Query } from './build-query-string.js';
import type { ListAllOptions, ListOptions } from './call-options.js';
import type { HttpTransport } from './http-transport.js';
import { listAll } from './list-all.js';
import type { PageLike } from './paginate.js';

export class PagedList<P extends PageLike<unknown>, O extends ListOptions = ListOptions> {
  constructor(
    private readonly transport: HttpTransport,
    private readonly schema: z.ZodType<P>,
    /** The list's own filters among its options, as query parameters after the cursor. */
    private readonly filters: (options: ListAllOptions<O>) => Query = () => ({}),
  ) {}

  page(path: ApiPath, options: O): Promise<P> {
    return this.read(path, options, { page: options.page, limit: options.limit });
  }

  all(path: ApiPath, options: ListAllOptions<O>): AsyncGenerator<P['items'][number], void, undefined> {
    return listAll(path, (cursor) => this.read(path, options, cursor));
  }

  private read(
    path: ApiPath,
    options: ListAllOptions<O>,
    cursor: { page?: string | undefined; limit?: number | undefined },
  ): Promise<P> {
    return this.transport.request('GET', path, {
      query: { ...cursor, ...this.filters(options) },
      signal: options.signal,
      schema: this.schema,
    });
  }
}
