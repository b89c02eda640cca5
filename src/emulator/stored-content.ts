// Between the stored pages of a revision and the docs tree of src/content: imports turn a folder's
// tree into stored pages, keeping the ids of pages and files that were already there (same source
// path), so comments and links that name them survive a re-import.
import type { DocsPage, DocsTree } from '../content/docs-tree.js';
import type { StoredFile, StoredPage, StoredRevision } from './emulator-state.js';
import { newId } from './ids.js';

export function storedToTree(revision: Pick<StoredRevision, 'pages' | 'files'>): DocsTree {
  const toDocs = (page: StoredPage): DocsPage => ({
    id: page.id,
    path: page.sourcePath,
    title: page.title,
    slug: page.slug,
    markdown: page.markdown,
    pages: page.pages.map(toDocs),
  });
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
  tree: DocsTree,
  previous: Pick<StoredRevision, 'pages' | 'files'> | undefined,
  now: string,
): { pages: StoredPage[]; files: StoredFile[] } {
  const oldPages = new Map(flattenPages(previous?.pages ?? []).map((page) => [page.sourcePath, page]));
  const oldFiles = new Map((previous?.files ?? []).map((file) => [file.sourcePath, file]));
  const toStored = (page: DocsPage): StoredPage => {
    const old = oldPages.get(page.path);
    const same = old !== undefined && old.markdown === page.markdown && old.title === page.title;
    return {
      id: old?.id ?? page.id ?? newId('pg_'),
      title: page.title,
      slug: page.slug,
      sourcePath: page.path,
      markdown: page.markdown,
      createdAt: old?.createdAt ?? now,
      updatedAt: same ? old.updatedAt : now,
      pages: page.pages.map(toStored),
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
