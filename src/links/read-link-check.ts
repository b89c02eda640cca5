// Reads one link check from the service: the target's current revision, its broken links as
// BrokenLink (page and address), and the service's `stats`. Each is one list of broken links,
// whatever the number of pages: a space's main content `GET /spaces/{s}/links?status=broken`, a
// change request `GET /spaces/{s}/change-requests/{cr}/links?status=broken` (in the service's
// public document, not in the interface's text; read page by page, a 50,000-page change request
// was 50,000 reads, over an hour against a distant service). A link's locations are the page
// records it is written on; a change request's are named from its page tree, read beside the list,
// which says which git file each page came from. A service without that list (404), or whose list
// holds fewer broken links than its own stats count (the document gives `brokenContext` no
// default: one that left out the links main has broken too), is read page by page instead, a few
// pages at a time.
import { ApiError } from '../api/api-error.js';
import type { ContentTarget } from '../api/call-options.js';
import type { DocsApiClient } from '../api/docs-api-client.js';
import { ALL_PAGE_LIMIT } from '../api/list-all.js';
import { paginate } from '../api/paginate.js';
import type { LinkCheckItem, LinkCheckList } from '../api/schemas/link-check-list-schema.js';
import type { RevisionPage } from '../api/schemas/revision-page-schema.js';
import type { ChangeRequestStatus } from '../api/schemas/service-enums.js';
import { mapBounded } from '../concurrency/map-bounded.js';
import type { LinkStats } from '../state/link-check-store.js';
import type { BrokenLink } from './broken-link.js';
import { type LocatedPage, linkPages, linkTarget } from './link-target.js';

/** A change request's content. */
type ChangeRequestTarget = ContentTarget & { changeRequestId: NonNullable<ContentTarget['changeRequestId']> };

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
  target: ChangeRequestTarget,
  signal: AbortSignal,
): Promise<{ broken: BrokenLink[]; stats: LinkStats }> {
  const { broken, stats } = await readChangeRequestLinks(api, target, signal);
  return { broken, stats };
}

/**
 * A change request's broken links with the documents they are on, as `docsync once` reports them
 * too: its page tree and its list of broken links, read at once.
 */
export async function readChangeRequestLinks(
  api: DocsApiClient,
  target: ChangeRequestTarget,
  signal: AbortSignal,
): Promise<{ pages: CheckedPage[]; broken: BrokenLink[]; stats: LinkStats }> {
  const { spaceId, changeRequestId } = target;
  const [{ pages }, read] = await Promise.all([
    api.content.getPages(target, { signal, contentOnly: true }),
    readAll(
      (cursor) =>
        api.changeRequests.listLinks(spaceId, changeRequestId, { status: 'broken', ...cursor, signal }),
      'GET /spaces/{}/change-requests/{}/links',
    ).catch((error: unknown) => {
      // The change request was found a moment ago: a 404 here is a service without the list.
      if (error instanceof ApiError && error.status === 404) return undefined;
      throw error;
    }),
  ]);
  const all = flatten(pages);
  if (read === undefined || read.items.length < read.stats.broken.total) {
    const perPage = await readPageLinks(api, target, all, signal);
    return { pages: documents(all), ...perPage };
  }
  const order = new Map(all.map((page, index) => [page.id, { page, index }]));
  const broken = brokenLinksOf(read.items, (located) => {
    const known = order.get(located.id);
    return known === undefined ? checkedPage(located, false) : checkedPage(known.page, true);
  });
  // In the pages' order, as the change request's documents are; a page the tree does not have
  // (content changed between the two reads) after them. A stable sort: each page's links stay in
  // the list's order.
  const at = (link: BrokenLink) => order.get(link.pageId)?.index ?? all.length;
  broken.sort((a, b) => at(a) - at(b));
  return { pages: documents(all), broken, stats: statsOf(read.stats) };
}

/** Page link lists read at once, when a change request is read page by page. */
const PARALLEL_READS = 6;

/**
 * Each page's broken links, PARALLEL_READS pages at a time, in the pages' order, with their stats
 * summed. The first failure is the answer, and no page starts after it.
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
  // The locations are the page records: their titles and paths are there for the log and /status.
  const broken = brokenLinksOf(read.items, (located) => checkedPage(located, false));
  return { broken, stats: statsOf(read.stats) };
}

/**
 * One BrokenLink per page a link is written on (a link on no page it names: one of an unknown
 * page), each page named by `named`. A page the link is written on twice (a location per place in
 * it) is one page still.
 */
function brokenLinksOf(
  items: readonly LinkCheckItem[],
  named: (page: LocatedPage) => CheckedPage,
): BrokenLink[] {
  return items.flatMap((link) => {
    const pages = [...new Map(linkPages(link.locationReferences).map((page) => [page.id, page])).values()];
    return (pages.length === 0 ? [{ id: 'unknown' }] : pages).map((page) => brokenLink(link, named(page)));
  });
}

function statsOf(stats: LinkCheckList['stats']): LinkStats {
  return { total: stats.total, broken: { ...stats.broken } };
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
