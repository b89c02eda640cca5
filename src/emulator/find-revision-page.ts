// Pages of a revision are a tree; comments name a page by id and show its path, the slugs from the
// top of the tree joined with `/`.
import type { StoredPage, StoredRevision } from './emulator-state.js';

export interface FoundPage {
  page: StoredPage;
  path: string;
}

export function findRevisionPage(revision: StoredRevision, pageId: string): FoundPage | undefined {
  return findIn(revision.pages, pageId, '');
}

function findIn(pages: readonly StoredPage[], pageId: string, parentPath: string): FoundPage | undefined {
  for (const page of pages) {
    const path = parentPath === '' ? page.slug : `${parentPath}/${page.slug}`;
    if (page.id === pageId) return { page, path };
    const found = findIn(page.pages, pageId, path);
    if (found !== undefined) return found;
  }
  return undefined;
}
