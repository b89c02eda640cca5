// The link check of a revision, computed from its pages' markdown by the service's own link finder
// (links/find-links.ts): relative links to missing pages or files are broken, to existing ones ok,
// app addresses in-app; external addresses are not fetched. Revisions never change, so each one is
// checked once, on its first read.
import type { EmulatorContext } from './emulator-context.js';
import type { StoredPage, StoredRevision } from './emulator-state.js';
import { findLinks } from './links/find-links.js';
import {
  type LinkStatus,
  type LinkTargetReference,
  type LinkTargets,
  resolveLink,
} from './links/resolve-link.js';

export type { LinkStatus } from './links/resolve-link.js';

export interface RevisionLink {
  seq: number;
  status: LinkStatus;
  /** A link in markdown soft-references its target (the document's other relation is `dependsOn`). */
  relation: 'reference';
  targetReference: LinkTargetReference;
  /** Pages where the link is written. */
  pageIds: string[];
}

const cache = new WeakMap<StoredRevision, RevisionLink[]>();

export function revisionLinks(ctx: EmulatorContext, revision: StoredRevision): RevisionLink[] {
  const cached = cache.get(revision);
  if (cached !== undefined) return cached;
  const pages = documentsOf(revision.pages);
  const targets: LinkTargets = {
    pageIdByPath: new Map(
      pages.flatMap(({ page }) =>
        page.sourcePath === undefined ? [] : [[page.sourcePath, page.id] as const],
      ),
    ),
    fileIdByPath: new Map(revision.files.map((file) => [file.sourcePath, file.id])),
    appOrigin: originOf(ctx.origin()),
  };
  const byTarget = new Map<string, RevisionLink>();
  for (const { page, path } of pages) {
    for (const { href } of findLinks(page.markdown)) {
      const { status, target } = resolveLink(href, { id: page.id, path }, targets);
      const key = `${status}|${target.kind}|${'page' in target ? target.page : 'file' in target ? target.file : target.url}`;
      let link = byTarget.get(key);
      if (link === undefined) {
        link = {
          seq: byTarget.size + 1,
          status,
          relation: 'reference',
          targetReference: target,
          pageIds: [],
        };
        byTarget.set(key, link);
      }
      // Each page is read once, its links together: a page already noted is the last one.
      if (link.pageIds.at(-1) !== page.id) link.pageIds.push(page.id);
    }
  }
  const links = [...byTarget.values()];
  cache.set(revision, links);
  return links;
}

/** The links written on one page. */
export function pageLinks(ctx: EmulatorContext, revision: StoredRevision, page: StoredPage): RevisionLink[] {
  let byPage = pageLinkCache.get(revision);
  if (byPage === undefined) {
    // Indexed once per revision: a link check read page by page asks for every page.
    byPage = new Map();
    for (const link of revisionLinks(ctx, revision)) {
      for (const pageId of link.pageIds) {
        const links = byPage.get(pageId) ?? [];
        links.push(link);
        byPage.set(pageId, links);
      }
    }
    pageLinkCache.set(revision, byPage);
  }
  return (byPage.get(page.id) ?? []).map((link) => ({ ...link, pageIds: [page.id] }));
}

const pageLinkCache = new WeakMap<StoredRevision, Map<string, RevisionLink[]>>();

/**
 * Every page that holds markdown, with the path its links resolve from: its source file; a page
 * with no file (groups, links, placeholders) has no markdown, and would resolve from the root.
 */
function documentsOf(pages: readonly StoredPage[]): { page: StoredPage; path: string }[] {
  const documents: { page: StoredPage; path: string }[] = [];
  const visit = (page: StoredPage): void => {
    documents.push({ page, path: page.sourcePath ?? '' });
    for (const child of page.pages) visit(child);
  };
  for (const page of pages) visit(page);
  return documents;
}

function originOf(address: string): string {
  return URL.canParse(address) ? new URL(address).origin : address;
}
