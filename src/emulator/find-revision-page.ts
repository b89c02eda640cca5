// Pages of a revision are a tree; comments name a page by id and show its path, the slugs from the
// top of the tree joined with `/`.
import type { StoredPage, StoredRevision } from './emulator-state.js';

export interface FoundPage {
  page: StoredPage;
  path: string;
}

// Revisions never change: each one's pages are indexed once, so that reading every page of a
// 50,000-page revision one by one (a change request's link check) is not quadratic.
const indexes = new WeakMap<StoredRevision, Map<string, FoundPage>>();

export function findRevisionPage(revision: StoredRevision, pageId: string): FoundPage | undefined {
  let index = indexes.get(revision);
  if (index === undefined) {
    index = new Map();
    indexPages(revision.pages, '', index);
    indexes.set(revision, index);
  }
  return index.get(pageId);
}

function indexPages(pages: readonly StoredPage[], parentPath: string, index: Map<string, FoundPage>): void {
  for (const page of pages) {
    const path = parentPath === '' ? page.slug : `${parentPath}/${page.slug}`;
    // The first page with the id in tree order, as a search would find it.
    if (!index.has(page.id)) index.set(page.id, { page, path });
    indexPages(page.pages, path, index);
  }
}
