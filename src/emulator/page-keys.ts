// Which page of one tree is which page of another, for keeping page ids across a re-import and for
// merging change requests. A document is known by its source file; groups, links and pages with no
// file have none, so they are known by kind, title (a link: address) and the page they sit under.
import type { StoredPage } from './emulator-state.js';
import { isTreeDocument, type TreePage, treeChildren } from './folder/content-tree.js';

export interface PageIdentity<T> {
  kind: 'document' | 'group' | 'link' | 'placeholder';
  /** A document's path, a link's address, the title of the others. */
  name: string;
  children: readonly T[];
}

/**
 * A key per page of `pages` and their descendants: `document:"guides/a.md"` for a document, the
 * parent's key, kind and name for the others (`>group:"Basics">placeholder:"Overview"`), with `#2`,
 * `#3` for repeats among siblings.
 */
export function pageKeys<T>(pages: readonly T[], identify: (page: T) => PageIdentity<T>): Map<T, string> {
  const keys = new Map<T, string>();
  const visit = (list: readonly T[], parent: string): void => {
    const repeats = new Map<string, number>();
    for (const page of list) {
      const { kind, name, children } = identify(page);
      const base =
        kind === 'document'
          ? `document:${JSON.stringify(name)}`
          : `${parent}>${kind}:${JSON.stringify(name)}`;
      const count = (repeats.get(base) ?? 0) + 1;
      repeats.set(base, count);
      const key = count === 1 ? base : `${base}#${count}`;
      keys.set(page, key);
      visit(children, key);
    }
  };
  visit(pages, '');
  return keys;
}

export function treeIdentity(page: TreePage): PageIdentity<TreePage> {
  const children = treeChildren(page);
  if (isTreeDocument(page)) return { kind: 'document', name: page.path, children };
  return { kind: page.kind, name: page.kind === 'link' ? page.href : page.title, children };
}

export function storedIdentity(page: StoredPage): PageIdentity<StoredPage> {
  const children = page.pages;
  if (page.type === 'group') return { kind: 'group', name: page.title, children };
  if (page.type === 'link') return { kind: 'link', name: page.href ?? '', children };
  if (page.sourcePath === undefined) return { kind: 'placeholder', name: page.title, children };
  return { kind: 'document', name: page.sourcePath, children };
}
