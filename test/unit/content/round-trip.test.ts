import { describe, expect, it } from 'vitest';
import type { DocsPage } from '../../../src/content/docs-tree.js';
import { folderToTree } from '../../../src/content/folder-to-tree.js';
import { classifyLink, extractLinks } from '../../../src/content/markdown-links.js';
import { readZip } from '../../../src/content/read-zip.js';
import { treeToFolder } from '../../../src/content/tree-to-folder.js';
import { writeZip } from '../../../src/content/write-zip.js';
import {
  bytes,
  FOLDERS,
  markdown,
  NAMES,
  randomTree,
  seeded,
  sortedFolder,
  title,
  treeShape,
} from '../../support/random-docs.js';

const SEEDS = Array.from({ length: 300 }, (_, i) => i + 1);

describe('round trips over generated trees', () => {
  it('folderToTree(treeToFolder(tree)) gives the same pages and files', () => {
    for (const seed of SEEDS) {
      const tree = randomTree(seed);
      expect(treeShape(folderToTree(treeToFolder(tree))), `seed ${seed}`).toEqual(treeShape(tree));
    }
  });

  it('treeToFolder(folderToTree(folder)) gives back a written folder byte for byte', () => {
    let withSummary = 0;
    for (const seed of SEEDS) {
      const folder = treeToFolder(randomTree(seed));
      if (folder.has('SUMMARY.md')) withSummary += 1;
      expect(sortedFolder(treeToFolder(folderToTree(folder))), `seed ${seed}`).toEqual(sortedFolder(folder));
    }
    // Both kinds of folder are exercised: with and without a summary.
    expect(withSummary).toBeGreaterThan(SEEDS.length / 2);
    expect(withSummary).toBeLessThan(SEEDS.length);
  });

  it('a folder without SUMMARY.md comes back without one, byte for byte', () => {
    for (const seed of SEEDS) {
      const random = seeded(seed);
      const folder = new Map<string, Buffer>();
      for (let i = random.int(12); i > 0; i -= 1) {
        const extension = random.pick(['md', 'md', 'png', 'bin']);
        const path = `${random.pick(FOLDERS)}${random.chance(0.2) ? 'README' : random.pick(NAMES)}.${extension}`;
        const content =
          extension === 'md' ? Buffer.from(markdown(random, title(random), path, [])) : bytes(random);
        folder.set(path, content);
      }
      expect(sortedFolder(treeToFolder(folderToTree(folder))), `seed ${seed}`).toEqual(sortedFolder(folder));
    }
  });

  it('survives a zip in between, and every generated link still lands', async () => {
    for (const seed of SEEDS.slice(0, 60)) {
      const tree = randomTree(seed);
      if (tree.pages[0]?.path !== 'README.md') continue; // a lone folder would be taken for a wrapper
      const back = folderToTree(await readZip(await writeZip(treeToFolder(tree))));
      expect(treeShape(back), `seed ${seed}`).toEqual(treeShape(tree));
      const visit = (pages: readonly DocsPage[]): void => {
        for (const page of pages) {
          for (const link of extractLinks(page.markdown)) {
            expect(
              classifyLink(link, page.path, back, { appOrigins: [] }).status,
              `${page.path} → ${link}`,
            ).toBe('ok');
          }
          visit(page.pages);
        }
      };
      visit(back.pages);
    }
  });
});
