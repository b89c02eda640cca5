// The Page envelope of a list kept in an order of its own (a site's sections, groups and site
// spaces, which move): the cursor names a place in that order rather than a creation number.
import { type PageEnvelope, type PageQuery, pageOf } from './page-list.js';

export function orderedPageOf<S, T>(
  items: readonly S[],
  query: PageQuery,
  render: (item: S) => T,
): PageEnvelope<T> {
  return pageOf(
    items.map((item, index) => ({ seq: index + 1, item })),
    query,
    (entry) => render(entry.item),
  );
}
