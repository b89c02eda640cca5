// `docsync start` whose data folder cannot be written (a read-only volume, as a container's image
// layer or a read-only mount is): it refuses at once with exit 2 and one line naming the folder and
// what to do, before it listens or starts a redis-server, rather than exit 1 with a stack.
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli-process.js';
import { tempDir } from '../../support/test-context.js';
import { tmpfsDir, tmpfsRefusal } from '../../support/tmpfs-mount.js';

const refusal = await tmpfsRefusal();

/** `docsync start` with its data folder at `dataDir` and its own redis-server, run to its exit. */
async function startWithDataDir(dataDir: string) {
  const dir = await tempDir('start-data-dir');
  const file = join(dir, 'docsync.yaml');
  // No redis.url: docsync would start its own redis-server in the data folder.
  await writeFile(file, `dataDir: ${dataDir}\nhttp:\n  listen: 127.0.0.1:0\n`);
  return runCli(['start', '--config', file]);
}

/** The one line on stderr, for a data folder that cannot be written for `reason`. */
const refusalLine = (dataDir: string, reason: string) =>
  `docsync: the data folder ${dataDir} cannot be written (${reason}): make it writable, or set dataDir in the configuration to a folder docsync may write\n`;

describe('docsync start on a data folder that is a file', () => {
  it('exits 2 with one plain line, before anything starts', async () => {
    const dataDir = join(await tempDir('data-is-a-file'), 'data');
    await writeFile(dataDir, 'not a folder');
    const { code, stdout, stderr } = await startWithDataDir(dataDir);
    expect(code).toBe(2);
    expect(stderr).toBe(refusalLine(dataDir, 'a file of that name is in the way'));
    expect(stdout).not.toContain('http server listening');
  });
});

describe.skipIf(refusal !== undefined)(
  `docsync start on a read-only data folder${refusal ? ` (skipped: ${refusal})` : ''}`,
  () => {
    it.each([
      ['is the read-only mount itself', ''],
      ['is to be made inside the read-only mount', 'docsync/data'],
    ])('exits 2 with one plain line when the data folder %s', async (_, below) => {
      const mount = await tmpfsDir('read-only-data', { readOnly: true });
      const dataDir = join(mount, below).replace(/\/$/, '');

      const { code, stdout, stderr } = await startWithDataDir(dataDir);

      expect(code).toBe(2);
      expect(stderr).toBe(refusalLine(dataDir, 'it is on a read-only file system'));
      // Refused before anything started: no HTTP server, no redis-server.
      expect(stdout).not.toContain('http server listening');
      expect(stdout).not.toContain('embedded redis-server');
      expect(await readdir(mount)).toEqual([]);
    });
  },
);
