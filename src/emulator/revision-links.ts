// The link check of a revision, computed from its markdown: relative links to missing pages or
// files are broken, to existing ones ok, app addresses in-app; external addresses are not fetched.
// Revisions never change, so each one is checked once.
import { classifyLink, extractLinks, type LinkTarget } from '../content/markdown-links.js';
import type { EmulatorContext } from './emulator-context.js';
import type { StoredPage, StoredRevision } from './emulator-state.js';
import { flattenPages, storedToTree } from './stored-content.js';

export type LinkStatus = 'ok' | 'broken' | 'in-app';

export interface RevisionLink {
  seq: number;
  status: LinkStatus;
  /** A link in markdown soft-references its target (the document's other relation is `dependsOn`). */
  relation: 'reference';
  targetReference:
    | { kind: 'page'; page: string }
    | { kind: 'file'; file: string }
    | { kind: 'url'; url: string };
  /** Pages where the link is written. */
  pageIds: string[];
}

const cache = new WeakMap<StoredRevision, RevisionLink[]>();

export function revisionLinks(ctx: EmulatorContext, revision: StoredRevision): RevisionLink[] {
  const cached = cache.get(revision);
  if (cached !== undefined) return cached;
  const tree = storedToTree(revision);
  const pages = flattenPages(revision.pages);
  const pageIdByPath = new Map(
    pages.flatMap((page) => (page.sourcePath === undefined ? [] : [[page.sourcePath, page.id] as const])),
  );
  const fileIdByPath = new Map(revision.files.map((file) => [file.sourcePath, file.id]));
  const byTarget = new Map<string, RevisionLink>();
  for (const page of pages) {
    // Groups and links have no markdown; a document with no file resolves its links from the root.
    const from = page.sourcePath ?? '';
    for (const href of extractLinks(page.markdown)) {
      const { status, target } = classifyLink(href, from, tree, { appOrigins: [ctx.origin()] });
      const reference = referenceOf(target, status, href, pageIdByPath, fileIdByPath);
      const key = `${status}|${JSON.stringify(reference)}`;
      const link = byTarget.get(key) ?? {
        seq: byTarget.size + 1,
        status,
        relation: 'reference' as const,
        targetReference: reference,
        pageIds: [],
      };
      if (!link.pageIds.includes(page.id)) link.pageIds.push(page.id);
      byTarget.set(key, link);
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

function referenceOf(
  target: LinkTarget,
  status: LinkStatus,
  href: string,
  pageIdByPath: ReadonlyMap<string, string>,
  fileIdByPath: ReadonlyMap<string, string>,
): RevisionLink['targetReference'] {
  // A broken link names what was written, since there is nothing it points to.
  if (status === 'broken') return { kind: 'url', url: href };
  if (target.kind === 'page') return { kind: 'page', page: pageIdByPath.get(target.page) ?? target.page };
  if (target.kind === 'file') return { kind: 'file', file: fileIdByPath.get(target.file) ?? target.file };
  return target;
}
