// Reads one link check from the service: the target's current revision, its broken links as
// BrokenLink (page and address), and the service's `stats`. A change request is read page by page,
// a few pages at a time (its stats summed); a space's main content in one list,
// `GET /spaces/{s}/links?status=broken`, whose locations are the page records (ContentLocation)
// with their titles and paths.
import type { ContentTarget } from '../api/call-options.js';
import type { DocsApiClient } from '../api/docs-api-client.js';
import { ALL_PAGE_LIMIT } from '../api/list-all.js';
import { paginate } from '../api/paginate.js';
import type { LinkCheckItem, LinkCheckList } from '../api/schemas/link-check-list-schema.js';
import type { RevisionPage } from '../api/schemas/revision-page-schema.js';
import type { ChangeRequestStatus } from '../api/schemas/service-enums.js';
import type { LinkStats } from '../state/link-check-store.js';
import { mapBounded } from '../upkeep/map-bounded.js';
import type { BrokenLink } from './broken-link.js';
import { type LocatedPage, linkPages, linkTarget } from './link-target.js';

export interface LinkCheckTarget {
  space: string;
  changeRequest?: string | undefined;
}

export interface LinkCheckRead {
  /** The revision the links belong to (or an older one, never a newer one: it is read first). */
  revision: string;
  broken: BrokenLink[];
  stats: LinkStats;
  /** The change request's status; undefined for the main content. */
  status?: ChangeRequestStatus;
}

/** A document of a link check: its id, what names it, and its source file in the docs folder. */
export interface CheckedPage {
  pageId: string;
  pageTitle: string;
  pagePath?: string | undefined;
  sourcePath?: string | undefined;
  noGitFile?: boolean | undefined;
}

export async function readLinkCheck(
  api: DocsApiClient,
  target: LinkCheckTarget,
  signal: AbortSignal,
): Promise<LinkCheckRead> {
  // The revision before the links: should content land in between, the record names the older
  // revision, and a merge policy waits for the next check rather than trusting a stale one.
  if (target.changeRequest === undefined) {
    const space = await api.spaces.get(target.space, { signal });
    return { revision: space.revision, ...(await readMainContent(api, target.space, signal)) };
  }
  const changeRequest = await api.changeRequests.get(target.space, target.changeRequest, { signal });
  const read = await readChangeRequest(
    api,
    { spaceId: target.space, changeRequestId: changeRequest.id },
    signal,
  );
  return { revision: changeRequest.revision, status: changeRequest.status, ...read };
}

async function readChangeRequest(
  api: DocsApiClient,
  target: ContentTarget,
  signal: AbortSignal,
): Promise<{ broken: BrokenLink[]; stats: LinkStats }> {
  const { pages } = await api.content.getPages(target, { signal });
  return readPageLinks(api, target, flatten(pages), signal);
}

/**
 * A change request's broken links with the documents they are on, as `docsync once` reports them:
 * one read of the page tree, then each page's links (readPageLinks).
 */
export async function readChangeRequestLinks(
  api: DocsApiClient,
  target: ContentTarget,
  signal: AbortSignal,
): Promise<{ pages: CheckedPage[]; broken: BrokenLink[] }> {
  const { pages } = await api.content.getPages(target, { signal });
  const all = flatten(pages);
  const { broken } = await readPageLinks(api, target, all, signal);
  return { pages: documents(all), broken };
}

/** Page link lists read at once. */
const PARALLEL_READS = 6;

/**
 * Each page's broken links, PARALLEL_READS pages at a time (a 50,000-page change request is 50,000
 * reads; one after another, a service a continent away would take over an hour), in the pages'
 * order, with their stats summed. The first failure is the answer, and no page starts after it.
 */
async function readPageLinks(
  api: DocsApiClient,
  target: ContentTarget,
  pages: readonly RevisionPage[],
  signal: AbortSignal,
): Promise<{ broken: BrokenLink[]; stats: LinkStats }> {
  const reads = await mapBounded(pages, PARALLEL_READS, (page) =>
    readAll(
      (cursor) => api.content.listPageLinks(target, page.id, { status: 'broken', ...cursor, signal }),
      'GET /spaces/{}/change-requests/{}/content/page/{}/links',
    ),
  );
  const broken: BrokenLink[] = [];
  const stats: LinkStats = { total: 0, broken: { total: 0 } };
  for (const [index, read] of reads.entries()) {
    stats.total += read.stats.total;
    stats.broken.total += read.stats.broken.total;
    if (read.stats.broken.changeRequest !== undefined)
      stats.broken.changeRequest = (stats.broken.changeRequest ?? 0) + read.stats.broken.changeRequest;
    if (read.items.length === 0) continue;
    const named = checkedPage(pages[index] as RevisionPage, true);
    for (const link of read.items) broken.push(brokenLink(link, named));
  }
  return { broken, stats };
}

/**
 * The documents of a page tree as a link check names them, each with its file in git or the note
 * that it has none. Groups and link pages have no text of their own to hold a link.
 */
function documents(pages: readonly RevisionPage[]): CheckedPage[] {
  return pages
    .filter((page) => page.type !== 'group' && page.type !== 'link')
    .map((page) => checkedPage(page, true));
}

async function readMainContent(
  api: DocsApiClient,
  spaceId: string,
  signal: AbortSignal,
): Promise<{ broken: BrokenLink[]; stats: LinkStats }> {
  const read = await readAll(
    (cursor) => api.spaces.listLinks(spaceId, { status: 'broken', ...cursor, signal }),
    'GET /spaces/{}/links',
  );
  const broken = read.items.flatMap((link) => {
    // One BrokenLink per page the link is written on, as the change request's per-page read
    // gives them, so that the two compare alike. The locations are the page records: their
    // titles and paths are there for the log and /status.
    const pages = linkPages(link.locationReferences);
    return (pages.length === 0 ? [{ id: 'unknown' }] : pages).map((page) =>
      brokenLink(link, checkedPage(page, false)),
    );
  });
  return { broken, stats: { total: read.stats.total, broken: { ...read.stats.broken } } };
}

/** Every item of a link list, and the `stats` of its first page (they cover the whole list). */
async function readAll(
  fetchPage: (cursor: { page?: string; limit: number }) => Promise<LinkCheckList>,
  path: string,
): Promise<{ items: LinkCheckItem[]; stats: LinkCheckList['stats'] }> {
  let stats: LinkCheckList['stats'] | undefined;
  const items: LinkCheckItem[] = [];
  const pages = paginate(
    async (page) => {
      const list = await fetchPage(
        page === undefined ? { limit: ALL_PAGE_LIMIT } : { page, limit: ALL_PAGE_LIMIT },
      );
      stats ??= list.stats;
      return list;
    },
    { path },
  );
  for await (const item of pages) items.push(item);
  // paginate always fetches a first page, which sets stats.
  return { items, stats: stats ?? { total: 0, broken: { total: 0 } } };
}

function brokenLink(link: LinkCheckItem, page: CheckedPage): BrokenLink {
  return { ...page, target: linkTarget(link.targetReference) };
}

/**
 * A page as the check names it. `fromRevision`: the page is a revision's document, whose `git`
 * tells whether it has a file; a location's page record may carry `git` too, and when it does not,
 * nothing is known.
 */
function checkedPage(page: RevisionPage | LocatedPage, fromRevision: boolean): CheckedPage {
  const common = { pageId: page.id, pageTitle: page.title ?? page.id, pagePath: page.path };
  // A revision's document names its file (`git.path`) when the service read it from one (git sync,
  // an import) and not when a person made it there. A page record of the main content's list names
  // no file either way: there, nothing is known.
  const git = (page as { git?: { path?: unknown } }).git;
  if (typeof git?.path === 'string') return { ...common, sourcePath: git.path };
  return fromRevision ? { ...common, noGitFile: true } : common;
}

function flatten(pages: readonly RevisionPage[]): RevisionPage[] {
  return pages.flatMap((page) => [page, ...flatten(page.pages ?? [])]);
}
