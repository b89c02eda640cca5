// Reads one link check from the service: the target's current revision, its broken links as
// BrokenLink (page and address), and the service's `stats`. A change request is read page by page
// (its stats summed); a space's main content in one list, `GET /spaces/{s}/links?status=broken`,
// whose locations are the page records (ContentLocation) with their titles and paths.
import type { ContentTarget } from '../api/call-options.js';
import type { DocsApiClient } from '../api/docs-api-client.js';
import { ALL_PAGE_LIMIT } from '../api/list-all.js';
import { paginate } from '../api/paginate.js';
import type { LinkCheckItem, LinkCheckList } from '../api/schemas/link-check-list-schema.js';
import type { RevisionPage } from '../api/schemas/revision-page-schema.js';
import type { ChangeRequestStatus } from '../api/schemas/service-enums.js';
import type { LinkStats } from '../state/link-check-store.js';
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
  const broken: BrokenLink[] = [];
  const stats: LinkStats = { total: 0, broken: { total: 0 } };
  for (const page of flatten(pages)) {
    const named = checkedPage(page, true);
    const read = await readAll(
      (cursor) => api.content.listPageLinks(target, page.id, { status: 'broken', ...cursor, signal }),
      'GET /spaces/{}/change-requests/{}/content/page/{}/links',
    );
    stats.total += read.stats.total;
    stats.broken.total += read.stats.broken.total;
    if (read.stats.broken.changeRequest !== undefined)
      stats.broken.changeRequest = (stats.broken.changeRequest ?? 0) + read.stats.broken.changeRequest;
    for (const link of read.items) broken.push(brokenLink(link, named));
  }
  return { broken, stats };
}

/**
 * The documents of a change request (or of the main content) as a link check names them, each with
 * its file in git or the note that it has none: one read of the page tree.
 */
export async function readCheckedPages(
  api: DocsApiClient,
  target: ContentTarget,
  signal: AbortSignal,
): Promise<CheckedPage[]> {
  const { pages } = await api.content.getPages(target, { signal });
  // Groups and link pages have no text of their own to hold a link.
  return flatten(pages)
    .filter((page) => page.type !== 'group' && page.type !== 'link')
    .map((page) => checkedPage(page, true));
}

/** Broken links read without their pages' files (`brokenLinksOf`) given them, by page id. */
export function withPageFiles(broken: readonly BrokenLink[], pages: readonly CheckedPage[]): BrokenLink[] {
  const byId = new Map(pages.map((page) => [page.pageId, page]));
  return broken.map((link) => {
    const page = byId.get(link.pageId);
    if (page?.sourcePath !== undefined) return { ...link, sourcePath: page.sourcePath };
    return page?.noGitFile === true ? { ...link, noGitFile: true } : link;
  });
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
