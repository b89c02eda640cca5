// Between the stored pages of a revision and the content tree (folder/content-tree.ts): imports turn a folder's
// tree into stored pages, keeping the ids of pages and files that were already there (the same
// source path; for groups, links and pages with no file, the same title or address in the same
// place), so comments and links that name them survive a re-import.
import type { StoredFile, StoredPage, StoredRevision } from './emulator-state.js';
import { type ContentTree, isTreeDocument, type TreePage, treeChildren } from './folder/content-tree.js';
import { newId } from './ids.js';
import { pageKeys, storedIdentity, treeIdentity } from './page-keys.js';

/** A document page with no source file (`* Overview` in a summary) becomes a placeholder. */
export function storedToTree(revision: Pick<StoredRevision, 'pages' | 'files'>): ContentTree {
  const toDocs = (page: StoredPage): TreePage => {
    const common = { id: page.id, title: page.title, slug: page.slug };
    if (page.type === 'group') return { kind: 'group', ...common, pages: page.pages.map(toDocs) };
    if (page.type === 'link') return { kind: 'link', ...common, href: page.href ?? '' };
    if (page.sourcePath === undefined)
      return { kind: 'placeholder', ...common, pages: page.pages.map(toDocs) };
    return { ...common, path: page.sourcePath, markdown: page.markdown, pages: page.pages.map(toDocs) };
  };
  return {
    pages: revision.pages.map(toDocs),
    files: revision.files.map((file) => ({
      path: file.sourcePath,
      name: file.name,
      contentType: file.contentType,
      data: Buffer.from(file.data, 'base64'),
    })),
  };
}

export function treeToStored(
  tree: ContentTree,
  previous: Pick<StoredRevision, 'pages' | 'files'> | undefined,
  now: string,
): { pages: StoredPage[]; files: StoredFile[] } {
  const oldPages = new Map(
    [...pageKeys(previous?.pages ?? [], storedIdentity)].map(([page, key]) => [key, page]),
  );
  const keys = pageKeys(tree.pages, treeIdentity);
  const oldFiles = new Map((previous?.files ?? []).map((file) => [file.sourcePath, file]));
  const toStored = (page: TreePage): StoredPage => {
    const old = oldPages.get(keys.get(page) ?? '');
    const content = storedContent(page);
    const same =
      old !== undefined &&
      old.title === page.title &&
      old.markdown === content.markdown &&
      old.href === content.href;
    return {
      id: old?.id ?? page.id ?? newId('pg_'),
      title: page.title,
      slug: page.slug,
      ...content,
      createdAt: old?.createdAt ?? now,
      updatedAt: same ? old.updatedAt : now,
      pages: treeChildren(page).map(toStored),
    };
  };
  return {
    pages: tree.pages.map(toStored),
    files: tree.files.map((file) => {
      const data = file.data.toString('base64');
      const old = oldFiles.get(file.path);
      return {
        id: old !== undefined && old.data === data ? old.id : (old?.id ?? newId('fl_')),
        name: file.name,
        sourcePath: file.path,
        contentType: file.contentType,
        size: file.data.length,
        data,
      };
    }),
  };
}

export function flattenPages(pages: readonly StoredPage[]): StoredPage[] {
  return pages.flatMap((page) => [page, ...flattenPages(page.pages)]);
}

/** What a page holds besides its title, by type: a placeholder is a document with no file. */
function storedContent(page: TreePage): Pick<StoredPage, 'type' | 'sourcePath' | 'markdown' | 'href'> {
  if (isTreeDocument(page)) return { type: 'document', sourcePath: page.path, markdown: page.markdown };
  if (page.kind === 'link') return { type: 'link', markdown: '', href: page.href };
  return { type: page.kind === 'group' ? 'group' : 'document', markdown: '' };
}
