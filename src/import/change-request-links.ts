// The broken links of a change request's content (or of the main content), page by page: which
// page, which address. Read straight from the service's link check.
import type { DocsApiClient } from '../api/docs-api-client.js';
import type { RevisionPage } from '../api/schemas/revision-page-schema.js';
import type { BrokenLink } from '../links/broken-link.js';
import { linkTarget } from '../links/link-target.js';

export async function brokenLinksOf(
  api: DocsApiClient,
  spaceId: string,
  changeRequestId: string | undefined,
  signal?: AbortSignal,
): Promise<BrokenLink[]> {
  const target = changeRequestId === undefined ? { spaceId } : { spaceId, changeRequestId };
  const options = signal === undefined ? {} : { signal };
  const { pages } = await api.content.getPages(target, options);
  const all = flatten(pages);
  // One list per page, read a few pages at a time (a 50,000-page change request is 50,000 reads),
  // kept in page order.
  const perPage: BrokenLink[][] = [];
  let next = 0;
  let failed = false;
  const lane = async (): Promise<void> => {
    while (!failed && next < all.length) {
      const index = next;
      next += 1;
      const page = all[index] as RevisionPage;
      const broken: BrokenLink[] = [];
      try {
        for await (const link of api.content.listPageLinksAll(target, page.id, {
          status: 'broken',
          ...options,
        })) {
          broken.push({
            pageId: page.id,
            pageTitle: page.title ?? page.id,
            pagePath: page.path,
            target: linkTarget(link.targetReference),
          });
        }
      } catch (error) {
        // The first failure is the answer: the other lanes take no further page.
        failed = true;
        throw error;
      }
      perPage[index] = broken;
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, all.length) }, lane));
  return perPage.flat();
}

/** Page link lists read at once. */
const PARALLEL_READS = 6;

function flatten(pages: readonly RevisionPage[]): RevisionPage[] {
  return pages.flatMap((page) => [page, ...flatten(page.pages ?? [])]);
}
