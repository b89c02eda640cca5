// Round trips through the local service over HTTP, on generated docs trees (nesting, groups, link
// and placeholder entries, titles that need escaping, links between pages and to files, binary
// files): a folder imported into a space and exported again comes back byte for byte, and a space
// exported to a folder and imported into another space gives the same pages and files. The normal form both sides must be in is written
// down in src/content/tree-to-folder.ts.
import { describe, expect, it } from 'vitest';
import type { ContentTarget } from '../../../src/api/call-options.js';
import type { RevisionPage } from '../../../src/api/schemas/revision-page-schema.js';
import { type DocsTree, isDocument } from '../../../src/content/docs-tree.js';
import { treeToFolder } from '../../../src/content/tree-to-folder.js';
import { readSpaceContent } from '../../../src/export/read-space-content.js';
import { startFileServer } from '../../support/file-server.js';
import { keptContentStore } from '../../support/kept-content-store.js';
import { randomTree, sortedFolder, treeShape } from '../../support/random-docs.js';
import { startTestEmulator } from '../../support/start-test-emulator.js';
import { testApiClient } from '../../support/test-api-client.js';
import { writeZip } from '../../support/write-zip.js';

const SEEDS = Array.from({ length: 100 }, (_, i) => i + 1);

function startsWithReadme(tree: DocsTree): boolean {
  const first = tree.pages[0];
  return first !== undefined && isDocument(first) && first.path === 'README.md';
}

describe('space to git round trips through the service', async () => {
  const test = await startTestEmulator();
  const files = await startFileServer();
  const { client } = testApiClient(test);

  /** A new space holding `folder`, imported as the sync imports it: a zip the service fetches. */
  async function spaceWith(folder: Map<string, Buffer>, name: string): Promise<string> {
    const space = await client.spaces.create(test.orgId, { title: name });
    const url = files.put(`/${name}.zip`, await writeZip(folder), 'application/zip');
    const result = await client.content.importContent({ spaceId: space.id }, { url, source: 'zip' });
    expect(result.importedResources, name).toBe(result.totalResources);
    return space.id;
  }

  /** The space's content as the export reads it, its blobs' bytes put back in the tree. */
  const exportOf = async (space: string) => {
    const store = keptContentStore();
    const content = await readSpaceContent({
      api: client,
      space,
      maxFileBytes: 1024 * 1024,
      signal: AbortSignal.timeout(20_000),
      store,
    });
    return { ...content, tree: store.textTree(content.tree) };
  };

  /** What a writer sees in a space: titles, nesting, markdown, and the bytes of every file. */
  async function pagesAndFiles(space: string) {
    const target: ContentTarget = { spaceId: space };
    const revision = await client.content.getRevision(target);
    const outline = (pages: readonly RevisionPage[] | undefined): unknown[] =>
      (pages ?? []).map((page) => ({
        type: page.type,
        title: page.title,
        markdown: page.markdown,
        href: page.href,
        pages: outline(page.pages),
      }));
    const bytes = await Promise.all(
      (revision.files ?? []).map(async (file) => {
        const response = await fetch(file.downloadURL ?? '');
        return [file.name, Buffer.from(await response.arrayBuffer()).toString('base64')];
      }),
    );
    return {
      pages: outline(revision.pages),
      files: bytes.sort(([a], [b]) => ((a ?? '') < (b ?? '') ? -1 : 1)),
    };
  }

  it('export(import(folder)) gives back the folder byte for byte', async () => {
    let checked = 0;
    for (const seed of SEEDS) {
      const tree = randomTree(seed);
      // A folder without a root README would be taken for a wrapper folder by the zip import.
      if (!startsWithReadme(tree)) continue;
      const folder = treeToFolder(tree);
      const space = await spaceWith(folder, `folder-${seed}`);
      const exported = await exportOf(space);
      expect(treeShape(exported.tree), `seed ${seed}`).toEqual(treeShape(tree));
      expect(sortedFolder(treeToFolder(exported.tree)), `seed ${seed}`).toEqual(sortedFolder(folder));
      checked += 1;
    }
    expect(checked).toBeGreaterThan(SEEDS.length / 2);
  });

  it('import(export(space)) gives the same pages and files', async () => {
    let checked = 0;
    for (const seed of SEEDS) {
      const tree = randomTree(seed + 1000);
      if (!startsWithReadme(tree)) continue;
      const original = await spaceWith(treeToFolder(tree), `space-${seed}`);
      const exported = await exportOf(original);
      const copy = await spaceWith(treeToFolder(exported.tree), `copy-${seed}`);
      expect(await pagesAndFiles(copy), `seed ${seed}`).toEqual(await pagesAndFiles(original));
      checked += 1;
    }
    expect(checked).toBeGreaterThan(SEEDS.length / 2);
  });
});
