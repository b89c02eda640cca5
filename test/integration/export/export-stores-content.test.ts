// An export hands the space's content to docsync's git mirror as it reads it and keeps only blob
// ids (src/export/stored-text.ts): what git already holds is not written again, a dry run writes
// nothing, and an export that fails leaves no git process behind.
import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { blobId } from '../../../src/content/folder-bytes.js';
import { type ExportDeps, runExport } from '../../../src/export/run-export.js';
import { MemoryMappingStateStore } from '../../../src/state/memory-mapping-state-store.js';
import { startExportWorld } from '../../support/export-world.js';
import { gitProcessesIn } from '../../support/git-processes.js';
import { addRevision, findPage } from '../../support/service-content.js';

const run = promisify(execFile);

/**
 * The blobs the mirror holds, where: one entry per pack (by name) and per loose object (by id), so
 * that a blob written again beside its first copy shows twice.
 */
async function storedBlobs(deps: ExportDeps): Promise<Map<string, string[]>> {
  const gitDir = deps.mirror.dir;
  const objects = join(gitDir, 'objects');
  const stored = new Map<string, string[]>();
  const git = async (...args: string[]) => (await run('git', ['--git-dir', gitDir, ...args])).stdout;
  for (const name of await readdir(join(objects, 'pack'))) {
    if (!name.endsWith('.idx')) continue;
    const listing = await git('verify-pack', '-v', join(objects, 'pack', name));
    const blobs = listing
      .split('\n')
      .map((line) => line.split(' '))
      .filter((fields) => fields[1] === 'blob')
      .map((fields) => fields[0] ?? '');
    stored.set(name, blobs);
  }
  for (const folder of await readdir(objects)) {
    if (!/^[0-9a-f]{2}$/.test(folder)) continue;
    for (const rest of await readdir(join(objects, folder))) {
      const id = `${folder}${rest}`;
      if ((await git('cat-file', '-t', id)).trim() === 'blob') stored.set(id, [id]);
    }
  }
  return stored;
}

/** Every blob the mirror holds, by id. */
async function blobsOf(deps: ExportDeps): Promise<Set<string>> {
  const { stdout } = await run('git', [
    '--git-dir',
    deps.mirror.dir,
    'cat-file',
    '--batch-all-objects',
    '--batch-check=%(objecttype) %(objectname)',
  ]);
  return new Set(
    stdout
      .split('\n')
      .filter((line) => line.startsWith('blob '))
      .map((line) => line.slice('blob '.length)),
  );
}

async function setUp() {
  const world = await startExportWorld(new MemoryMappingStateStore(), 'space-to-git');
  const deps = await world.processDeps('stored-content-mirror');
  // The space equals git's folder: nothing to commit, and the mirror holds git's blobs.
  expect(await runExport(deps, world.mapping)).toMatchObject({ result: 'unchanged' });
  // Each git fast-import keeps what it wrote as a pack of its own, however few its objects: a blob
  // written again then shows beside its first copy (unpacked, git would skip it).
  await run('git', ['--git-dir', deps.mirror.dir, 'config', 'fastimport.unpackLimit', '1']);
  return { ...world, deps };
}

describe('an export keeps the space content in the git mirror, not in memory', () => {
  it('writes only the bytes git lacks, and commits every file byte for byte', async () => {
    const { mapping, deps, edit, remote } = await setUp();
    const edited = '# Install\n\nRun the installer, then sign in.\n';
    edit((pages) => {
      findPage(pages, 'install.md').markdown = edited;
    });
    const before = await storedBlobs(deps);
    const outcome = await runExport(deps, mapping);
    expect(outcome).toMatchObject({ result: 'committed' });

    // The pages git holds already are not written again: the export wrote the edited one alone.
    const written = [...(await storedBlobs(deps))]
      .filter(([where]) => !before.has(where))
      .flatMap(([, blobs]) => blobs);
    expect(written).toEqual([blobId(Buffer.from(edited), 40)]);
    expect(`${await remote('show', 'main:docs/install.md')}\n`).toBe(edited);
    expect(await remote('show', 'main:docs/usage.md')).toBe('# Usage');
    expect(await gitProcessesIn(deps.mirror.dir)).toEqual([]);
  });

  it('writes nothing into the mirror in a dry run', async () => {
    const { mapping, deps, edit } = await setUp();
    edit((pages) => {
      findPage(pages, 'usage.md').markdown = '# Usage\n\nA dry run reads this and writes none of it.\n';
    });
    const before = await blobsOf(deps);
    expect(await runExport({ ...deps, dryRun: true }, mapping)).toMatchObject({ result: 'dry-run' });
    expect(await blobsOf(deps)).toEqual(before);
  });

  it('stops its git and commits nothing when a download fails after the pages were read', async () => {
    const { test, space, mapping, deps, remote } = await setUp();
    const head = await remote('rev-parse', 'main');
    // The service says 10 bytes, then sends 5,000: the download is refused past the mapping's cap.
    const current = test.emulator.state.revisions[test.emulator.state.spaces[space]?.revision ?? ''];
    addRevision(test.emulator, { spaceId: space }, structuredClone(current?.pages ?? []), [
      {
        id: 'file_big',
        name: 'big.png',
        sourcePath: '.gitbook/assets/big.png',
        contentType: 'image/png',
        size: 10,
        data: Buffer.alloc(5000, 7).toString('base64'),
      },
    ]);
    const capped = { ...mapping, export: { ...mapping.export, maxFileBytes: 1000 } };
    await expect(runExport(deps, capped)).rejects.toMatchObject({ code: 'EXPORT_FILE_TOO_LARGE' });
    expect(await gitProcessesIn(deps.mirror.dir)).toEqual([]);
    expect(await remote('rev-parse', 'main')).toBe(head);
  });

  it("fails a dry run with the reason when git's folder cannot be read, and nothing else", async () => {
    const { repo, mapping, deps, edit } = await setUp();
    await repo.commit({ 'docs/.gitbook.yaml': 'root: [unclosed\n' }, 'A broken .gitbook.yaml');
    await repo.push();
    edit((pages) => {
      findPage(pages, 'usage.md').markdown = '# Usage\n\nEdited while git cannot be read.\n';
    });
    // An unhandled rejection beside this one would fail the whole test file.
    await expect(runExport({ ...deps, dryRun: true }, mapping)).rejects.toMatchObject({
      code: 'CONTENT_INVALID',
    });
  });
});
