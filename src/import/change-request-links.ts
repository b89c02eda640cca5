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
  const broken: BrokenLink[] = [];
  for (const page of flatten(pages)) {
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
  }
  return broken;
}

function flatten(pages: readonly RevisionPage[]): RevisionPage[] {
  return pages.flatMap((page) => [page, ...flatten(page.pages ?? [])]);
}
