// The export plans its folder from blob ids (src/export/stored-text.ts): the folder written from a
// tree of stored texts must be the folder written from the same tree as text, path for path and
// byte for byte (by blob id), its summary included, over no summary in git or over one of git's.
import { describe, expect, it } from 'vitest';
import { allDocuments, type DocsPage, type DocsTree } from '../../../src/content/docs-tree.js';
import { blobOf, type StoredBlob } from '../../../src/content/folder-bytes.js';
import { firstHeading } from '../../../src/content/folder-to-tree.js';
import { readOutline } from '../../../src/content/read-outline.js';
import { type CurrentFolder, treeToFolder } from '../../../src/content/tree-to-folder.js';
import { hashingStore, STORED_CONTENT, type StoredText, storeText } from '../../../src/export/stored-text.js';
import { randomTree } from '../../support/random-docs.js';

const store = hashingStore(40);

function stored(tree: DocsTree): DocsTree<StoredText, StoredBlob> {
  const pages = (list: readonly DocsPage[]): DocsPage<StoredText>[] =>
    list.map((page): DocsPage<StoredText> => {
      if (page.kind === 'link') return page;
      if (page.kind === 'group' || page.kind === 'placeholder') return { ...page, pages: pages(page.pages) };
      return { ...page, markdown: storeText(store, page.markdown), pages: pages(page.pages) };
    });
  return {
    pages: pages(tree.pages),
    files: tree.files.map((file) => ({ ...file, data: store.add(file.data) })),
  };
}

/** Git's folder as `tree` wrote it, as the export finds it there. */
function gitFolderOf(tree: DocsTree): CurrentFolder {
  const folder = treeToFolder(tree);
  const summary = folder.get('SUMMARY.md');
  return {
    summary,
    outline: readOutline(folder.keys(), summary?.toString('utf8')).pages,
    staying: [],
  };
}

function byBlob(folder: ReadonlyMap<string, Buffer | StoredBlob>): [string, string][] {
  return [...folder].map(([path, bytes]) => [path, blobOf(bytes, 40)]);
}

describe('a tree of stored texts', () => {
  it('writes the folder its text writes, summary and all, with or without git’s summary', () => {
    let summaries = 0;
    for (let seed = 1; seed <= 150; seed += 1) {
      for (const kinds of [true, false]) {
        const tree = randomTree(seed, kinds);
        // Pages without titles of their own are titled by their headings or file names.
        if (seed % 3 === 0) for (const page of allDocuments(tree.pages)) page.title = '';
        for (const current of [undefined, gitFolderOf(randomTree(seed + 500, kinds)), gitFolderOf(tree)]) {
          const options = current === undefined ? {} : { current };
          const text = treeToFolder(tree, options);
          expect(byBlob(treeToFolder(stored(tree), options, STORED_CONTENT)), `seed ${seed}`).toEqual(
            byBlob(text),
          );
          if (text.has('SUMMARY.md')) summaries += 1;
        }
      }
    }
    expect(summaries).toBeGreaterThan(100);
  });

  it('titles a page by its heading as its UTF-8 bytes read back', () => {
    expect(firstHeading('# Caf\u00e9 \uD800 done\n')).toBe('Caf\u00e9 \uFFFD done');
    expect(firstHeading('# Smile \uD83D\uDE00\n')).toBe('Smile \uD83D\uDE00');
    const text = '# A\uD800\n';
    expect(storeText(store, text).heading).toBe(firstHeading(Buffer.from(text).toString('utf8')));
  });
});
