// Every item of a list operation, page after page, following `next.page` until the service stops
// giving one. A cursor seen twice would loop forever, so it is a broken answer instead.
import { ApiError } from './api-error.js';

/** The part of Page<T> pagination reads. */
export interface PageLike<T> {
  next?: { page: string } | undefined;
  items: readonly T[];
}

export interface PaginateOptions {
  /** Named in the error when a cursor repeats: the list's path. */
  path?: string;
}

export async function* paginate<T>(
  fetchPage: (page?: string) => Promise<PageLike<T>>,
  options: PaginateOptions = {},
): AsyncGenerator<T, void, undefined> {
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (;;) {
    const page = await fetchPage(cursor);
    yield* page.items;
    const next = page.next?.page;
    if (next === undefined) return;
    if (seen.has(next)) {
      throw new ApiError({
        code: 'API_RESPONSE_INVALID',
        method: 'GET',
        path: options.path ?? '(list)',
        message: `GET ${options.path ?? '(list)'}: the service repeated a page cursor`,
      });
    }
    seen.add(next);
    cursor = next;
  }
}
