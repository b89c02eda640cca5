// The pages a change request changes: its revision's pages against the main content it was made
// from or last updated from, by page id (an import keeps the id of a page whose file stays). Pure.
import type { StoredPage } from '../emulator-state.js';
import { flattenPages } from '../stored-content.js';

export type PageChange = 'added' | 'changed' | 'removed';

export interface ChangedPage {
  title: string;
  /** The page's path of slugs, such as `guides/install`. */
  path: string;
  change: PageChange;
}

export function changedPages(base: readonly StoredPage[], head: readonly StoredPage[]): ChangedPage[] {
  const before = pathsById(base);
  const after = pathsById(head);
  const changes: ChangedPage[] = [];
  for (const [id, { page, path }] of after) {
    const old = before.get(id);
    if (old === undefined) changes.push({ title: page.title, path, change: 'added' });
    else if (differs(old.page, page) || old.path !== path)
      changes.push({ title: page.title, path, change: 'changed' });
  }
  for (const [id, { page, path }] of before)
    if (!after.has(id)) changes.push({ title: page.title, path, change: 'removed' });
  return changes.sort((a, b) => a.path.localeCompare(b.path));
}

function pathsById(pages: readonly StoredPage[]): Map<string, { page: StoredPage; path: string }> {
  const byId = new Map<string, { page: StoredPage; path: string }>();
  const walk = (list: readonly StoredPage[], parent: string) => {
    for (const page of list) {
      const path = parent === '' ? page.slug : `${parent}/${page.slug}`;
      byId.set(page.id, { page, path });
      walk(page.pages, path);
    }
  };
  walk(pages, '');
  return byId;
}

/** What a reader sees of a page: its title, type, text and address; children are pages of their own. */
function differs(a: StoredPage, b: StoredPage): boolean {
  return (
    a.title !== b.title ||
    (a.type ?? 'document') !== (b.type ?? 'document') ||
    a.markdown !== b.markdown ||
    a.href !== b.href
  );
}

/** Every page of a revision, for counting. */
export function pageCount(pages: readonly StoredPage[]): number {
  return flattenPages(pages).length;
}
