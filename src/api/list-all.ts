// The `...All()` variant of a list method: every item of every page, 1000 at a time.
import type { ApiPath } from './api-path.js';
import { type PageLike, paginate } from './paginate.js';

/** The largest page the service serves. */
export const ALL_PAGE_LIMIT = 1000;

/** What `fetchPage` merges into its list options: the cursor (absent for the first page) and the size. */
export interface PageCursor {
  page?: string;
  limit: number;
}

export function listAll<T>(
  path: ApiPath,
  fetchPage: (cursor: PageCursor) => Promise<PageLike<T>>,
): AsyncGenerator<T, void, undefined> {
  return paginate(
    (page) => fetchPage(page === undefined ? { limit: ALL_PAGE_LIMIT } : { page, limit: ALL_PAGE_LIMIT }),
    { path: path.path },
  );
}
