// The content of a revision as a docs folder holds it, in the local service's own terms: the tree an
// import reads from an archive, and what change requests merge. Stored pages (emulator-state.ts)
// are this tree with ids and dates; stored-content.ts converts between the two.

/** A page read from a markdown file; its children are `pages`, in reading order. */
export interface TreeDocument {
  /** Absent in trees read back from state written before page kinds: no kind is a document. */
  kind?: 'document';
  /** The stored page's id, when the tree was read back from a revision. */
  id?: string;
  /** The file in the docs folder: relative, `/`-separated, normalised (`guides/install.md`). */
  path: string;
  title: string;
  slug: string;
  markdown: string;
  pages: TreePage[];
}

/** A `## Heading` of SUMMARY.md: the top-level entries under it. Never nested in another group. */
export interface TreeGroup {
  kind: 'group';
  id?: string;
  title: string;
  slug: string;
  pages: TreePage[];
}

/** An entry pointing outside the docs, such as `* [Status](https://status.example.com)`. */
export interface TreeLink {
  kind: 'link';
  id?: string;
  title: string;
  slug: string;
  href: string;
}

/** An entry with no file (`* Overview`): the service makes it an empty document that holds pages. */
export interface TreePlaceholder {
  kind: 'placeholder';
  id?: string;
  title: string;
  slug: string;
  pages: TreePage[];
}

export type TreePage = TreeDocument | TreeGroup | TreeLink | TreePlaceholder;

/** A file that is not a page: an image, an attachment. */
export interface TreeFile {
  /** Relative, `/`-separated, normalised (`.gitbook/assets/logo.png`). */
  path: string;
  /** The last segment of `path`. */
  name: string;
  contentType: string;
  data: Buffer;
}

export interface ContentTree {
  /** Top-level pages in reading order; the first is the space's first page. */
  pages: TreePage[];
  /** Files in path order. */
  files: TreeFile[];
}

export function isTreeDocument(page: TreePage): page is TreeDocument {
  return page.kind === undefined || page.kind === 'document';
}

/** The pages below `page`: none below a link. */
export function treeChildren(page: TreePage): TreePage[] {
  return page.kind === 'link' ? [] : page.pages;
}

/** How many pages of every kind `pages` hold, descendants included. */
export function countTreePages(pages: readonly TreePage[]): number {
  let count = 0;
  const visit = (list: readonly TreePage[]): void => {
    for (const page of list) {
      count += 1;
      visit(treeChildren(page));
    }
  };
  visit(pages);
  return count;
}

/** How many documents (pages with a file) `pages` hold, descendants included. */
export function countTreeDocuments(pages: readonly TreePage[]): number {
  let count = 0;
  const visit = (list: readonly TreePage[]): void => {
    for (const page of list) {
      if (isTreeDocument(page)) count += 1;
      visit(treeChildren(page));
    }
  };
  visit(pages);
  return count;
}
