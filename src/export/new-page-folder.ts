// Where a page made in the service is written: into the folder its siblings' files already share,
// else beside its parent's file; never a folder named after its place on the site when the pages
// around it live elsewhere (a group `version-9` whose pages are in `contents/9/`). Pure: the export
// plan (revision-to-tree.ts) passes in the folders, and keeps a person's own paths as they are.

/** What decides a new page's folder, each folder relative to the docs root (`''` is the root). */
export interface NewPagePlace {
  /**
   * For each page beside it (its own entry included, in summary order): the folder that page's file
   * stands in (see `folderOfSibling`), or undefined for a page without a file of its own in git.
   */
  siblings: readonly (string | undefined)[];
  /** The new page's position in `siblings`. */
  index: number;
  /** The folder of its parent's file (see `folderOfChildren`); undefined without a parent file. */
  parent: string | undefined;
}

/**
 * The folder a new page goes in: the one most of its siblings' files share, ties going to the
 * nearest sibling before it among the tied (else the nearest after it); with no sibling file, its
 * parent's folder; with neither, undefined (the path derived from its place on the site stays).
 */
export function newPageFolder(place: NewPagePlace): string | undefined {
  const counts = new Map<string, number>();
  for (const folder of place.siblings)
    if (folder !== undefined) counts.set(folder, (counts.get(folder) ?? 0) + 1);
  if (counts.size === 0) return place.parent;
  const most = Math.max(...counts.values());
  const tied = (folder: string | undefined) => folder !== undefined && counts.get(folder) === most;
  for (let i = place.index - 1; i >= 0; i -= 1) if (tied(place.siblings[i])) return place.siblings[i];
  for (let i = place.index + 1; i < place.siblings.length; i += 1)
    if (tied(place.siblings[i])) return place.siblings[i];
  return undefined;
}

/**
 * The folder a sibling's file stands in. A folder's readme holding child pages (`guides/README.md`)
 * stands for its folder, which sits in the folder above (`''`): its children are in `guides/`.
 */
export function folderOfSibling(path: string, hasChildren: boolean, isReadme: boolean): string {
  const folder = folderOf(path);
  return hasChildren && isReadme ? folderOf(folder) : folder;
}

/** Where a page's children go when their own siblings have no file: the folder of its file. */
export function folderOfChildren(path: string): string {
  return folderOf(path);
}

/**
 * The file a new page is written to in `folder`, and its n-th variant when that path is taken: a page
 * with children gets a folder of its own (`<folder>/<slug>/README.md`) for them to go in.
 */
export function newPagePath(
  folder: string,
  slug: string,
  hasChildren: boolean,
): { wanted: string; variant: (n: number) => string } {
  const at = (name: string) => (folder === '' ? name : `${folder}/${name}`);
  return hasChildren
    ? { wanted: at(`${slug}/README.md`), variant: (n) => at(`${slug}-${n}/README.md`) }
    : { wanted: at(`${slug}.md`), variant: (n) => at(`${slug}-${n}.md`) };
}

function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}
