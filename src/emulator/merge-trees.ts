// Three-way merge of docs trees, for a change request's update and merge. Pages are matched by
// page-keys.ts (documents by source path; groups, links and pages with no file by title or address
// and place), files by path. What the change request changed since its base (added, edited, removed)
// is applied on top of the main content; everything else follows the main content. When both sides
// changed the same page (a removal is a change too), the change request's version wins: the local
// service does not model conflicts, and docsync's tests only need the outcome to be deterministic.
import {
  type ContentTree,
  isTreeDocument,
  type TreeFile,
  type TreePage,
  treeChildren,
} from './folder/content-tree.js';
import { pageKeys, treeIdentity } from './page-keys.js';

interface Placed {
  page: TreePage;
  /** The key of the page it sits under; undefined at the top. */
  parent: string | undefined;
  /** The key of the sibling right before it, in its tree. */
  after: string | undefined;
}

export function mergeTrees(base: ContentTree, ours: ContentTree, theirs: ContentTree): ContentTree {
  const basePages = index(base.pages);
  const ourPages = index(ours.pages);
  const theirKeys = pageKeys(theirs.pages, treeIdentity);
  const changed = (key: string) => {
    const mine = ourPages.get(key);
    const was = basePages.get(key);
    return mine === undefined || was === undefined || contentOf(mine.page) !== contentOf(was.page);
  };
  const removedByUs = new Set([...basePages.keys()].filter((key) => !ourPages.has(key)));

  // Keys of the result's pages: those of the main content, then those of the pages added to it.
  const resultKeys = new Map<TreePage, string>();
  const present = new Map<string, TreePage>();
  const keep = (pages: readonly TreePage[]): TreePage[] =>
    pages.flatMap((page) => {
      const key = theirKeys.get(page) ?? '';
      if (removedByUs.has(key)) return [];
      const mine = ourPages.get(key);
      const source = mine !== undefined && changed(key) ? mine.page : page;
      const kept = withPages(source, keep(treeChildren(page)));
      resultKeys.set(kept, key);
      present.set(key, kept);
      return [kept];
    });
  const result = keep(theirs.pages);

  // Pages the change request added go where it put them: under the same parent, after the same sibling.
  // So do pages it changed that main removed meanwhile: its version wins over the removal. And so do
  // pages that were under a page it removed or renamed (a group's new title): they moved with it.
  const theirPages = new Map([...theirKeys].map(([page, key]) => [key, page]));
  for (const [key, placed] of ourPages) {
    if (present.has(key)) continue;
    const main = theirPages.get(key);
    if (basePages.has(key) && !changed(key) && main === undefined) continue;
    const parent = placed.parent === undefined ? undefined : present.get(placed.parent);
    const siblings = parent === undefined || parent.kind === 'link' ? result : parent.pages;
    const at =
      placed.after === undefined
        ? 0
        : siblings.findIndex((page) => resultKeys.get(page) === placed.after) + 1;
    const page = withPages(main !== undefined && !changed(key) ? main : placed.page, []);
    siblings.splice(at === 0 && placed.after !== undefined ? siblings.length : at, 0, page);
    resultKeys.set(page, key);
    present.set(key, page);
  }
  return { pages: result, files: mergeFiles(base.files, ours.files, theirs.files) };
}

function mergeFiles(
  base: readonly TreeFile[],
  ours: readonly TreeFile[],
  theirs: readonly TreeFile[],
): TreeFile[] {
  const baseByPath = new Map(base.map((file) => [file.path, file]));
  const ourByPath = new Map(ours.map((file) => [file.path, file]));
  const merged = new Map<string, TreeFile>();
  for (const file of theirs) {
    const mine = ourByPath.get(file.path);
    const was = baseByPath.get(file.path);
    if (was !== undefined && mine === undefined) continue;
    merged.set(
      file.path,
      mine !== undefined && (was === undefined || !mine.data.equals(was.data)) ? mine : file,
    );
  }
  // Files the change request added, or changed while main removed them: its version wins.
  for (const file of ours) {
    const was = baseByPath.get(file.path);
    if (!merged.has(file.path) && (was === undefined || !file.data.equals(was.data))) {
      merged.set(file.path, file);
    }
  }
  return [...merged.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Every page of the tree by key, with where it sits. */
function index(pages: readonly TreePage[]): Map<string, Placed> {
  const keys = pageKeys(pages, treeIdentity);
  const placed = new Map<string, Placed>();
  const visit = (list: readonly TreePage[], parent: string | undefined): void => {
    list.forEach((page, i) => {
      const key = keys.get(page) ?? '';
      const before = list[i - 1];
      placed.set(key, { page, parent, after: before === undefined ? undefined : keys.get(before) });
      visit(treeChildren(page), key);
    });
  };
  visit(pages, undefined);
  return placed;
}

/** What an edit changes: a page's title and its markdown or address. */
function contentOf(page: TreePage): string {
  const body = isTreeDocument(page) ? page.markdown : page.kind === 'link' ? page.href : '';
  return JSON.stringify([page.kind ?? 'document', page.title, body]);
}

/** `page` with `pages` as its children; a link has none. */
function withPages(page: TreePage, pages: TreePage[]): TreePage {
  return page.kind === 'link' ? { ...page } : { ...page, pages };
}
