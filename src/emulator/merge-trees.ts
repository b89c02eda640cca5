// Three-way merge of docs trees, for a change request's update and merge. Pages and files are
// matched by source path. What the change request changed since its base (added, edited, removed)
// is applied on top of the main content; everything else follows the main content. When both sides
// changed the same page (a removal is a change too), the change request's version wins: the local
// service does not model conflicts, and docsync's tests only need the outcome to be deterministic.
import type { DocsFile, DocsPage, DocsTree } from '../content/docs-tree.js';

interface Placed {
  page: DocsPage;
  parent: string | undefined;
  /** The path of the sibling right before it, in its tree. */
  after: string | undefined;
}

export function mergeTrees(base: DocsTree, ours: DocsTree, theirs: DocsTree): DocsTree {
  const basePages = index(base.pages);
  const ourPages = index(ours.pages);
  const changed = (path: string) => {
    const mine = ourPages.get(path);
    const was = basePages.get(path);
    return (
      mine === undefined ||
      was === undefined ||
      mine.page.markdown !== was.page.markdown ||
      mine.page.title !== was.page.title
    );
  };
  const removedByUs = new Set([...basePages.keys()].filter((path) => !ourPages.has(path)));

  const keep = (pages: readonly DocsPage[]): DocsPage[] =>
    pages
      .filter((page) => !removedByUs.has(page.path))
      .map((page) => {
        const mine = ourPages.get(page.path);
        const source = mine !== undefined && changed(page.path) ? mine.page : page;
        return { ...source, pages: keep(page.pages) };
      });
  const result = keep(theirs.pages);

  // Pages the change request added go where it put them: under the same parent, after the same sibling.
  // So do pages it changed that main removed meanwhile: its version wins over the removal.
  const present = index(result);
  for (const [path, placed] of ourPages) {
    if (present.has(path) || (basePages.has(path) && !changed(path))) continue;
    const siblings =
      placed.parent === undefined ? result : (present.get(placed.parent)?.page.pages ?? result);
    const at = placed.after === undefined ? 0 : siblings.findIndex((page) => page.path === placed.after) + 1;
    const page = { ...placed.page, pages: [] };
    siblings.splice(at === 0 && placed.after !== undefined ? siblings.length : at, 0, page);
    present.set(path, { page, parent: placed.parent, after: placed.after });
  }
  return { pages: result, files: mergeFiles(base.files, ours.files, theirs.files) };
}

function mergeFiles(
  base: readonly DocsFile[],
  ours: readonly DocsFile[],
  theirs: readonly DocsFile[],
): DocsFile[] {
  const baseByPath = new Map(base.map((file) => [file.path, file]));
  const ourByPath = new Map(ours.map((file) => [file.path, file]));
  const merged = new Map<string, DocsFile>();
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

function index(
  pages: readonly DocsPage[],
  parent?: string,
  into = new Map<string, Placed>(),
): Map<string, Placed> {
  pages.forEach((page, i) => {
    into.set(page.path, { page, parent, after: pages[i - 1]?.path });
    index(page.pages, page.path, into);
  });
  return into;
}
