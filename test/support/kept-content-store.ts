// A content store (src/export/stored-text.ts) that keeps what it is given in memory, for tests that
// read a space's content as an export reads it and look at it again as text and bytes.
import type { DocsPage, DocsTree } from '../../src/content/docs-tree.js';
import { blobId, type StoredBlob } from '../../src/content/folder-bytes.js';
import type { ContentStore, StoredText } from '../../src/export/stored-text.js';

export interface KeptContentStore extends ContentStore {
  /** The tree with each blob's bytes in place of its id: pages' markdown as text, files' as Buffers. */
  textTree(tree: DocsTree<StoredText, StoredBlob>): DocsTree;
}

export function keptContentStore(hashLength = 40): KeptContentStore {
  const kept = new Map<string, Buffer>();
  const bytes = (blob: string): Buffer => {
    const data = kept.get(blob);
    if (data === undefined) throw new Error(`blob ${blob} was never given to the store`);
    return data;
  };
  const pages = (list: readonly DocsPage<StoredText>[]): DocsPage[] =>
    list.map((page): DocsPage => {
      if (page.kind === 'link') return page;
      if (page.kind === 'group' || page.kind === 'placeholder') return { ...page, pages: pages(page.pages) };
      return { ...page, markdown: bytes(page.markdown.blob).toString('utf8'), pages: pages(page.pages) };
    });
  return {
    add(data) {
      const blob = blobId(data, hashLength);
      kept.set(blob, data);
      return { blob, size: data.length };
    },
    congested: false,
    drained: async () => undefined,
    finish: async () => undefined,
    close: () => undefined,
    textTree: (tree) => ({
      pages: pages(tree.pages),
      files: tree.files.map((file) => ({ ...file, data: bytes(file.data.blob) })),
    }),
  };
}
