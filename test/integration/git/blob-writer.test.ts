// The blob writer an export hands the space's content to (src/git/blob-writer.ts), on a bare
// repository on disk: each blob stored once under git's own id, nothing git holds written again
// (even when git's ids come late), a full pipe making the caller wait, nothing stored and no git
// left running when it is closed before it finished.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BlobWriter } from '../../../src/git/blob-writer.js';
import { GitError } from '../../../src/git/git-error.js';
import { gitEnvironment } from '../../../src/git/git-process.js';
import { gitProcessesIn } from '../../support/git-processes.js';
import { tempDir } from '../../support/test-context.js';

const run = promisify(execFile);

async function bareRepo(format: 'sha1' | 'sha256' = 'sha1'): Promise<string> {
  const dir = join(await tempDir('blob-writer'), 'repo.git');
  await run('git', ['init', '--quiet', '--bare', `--object-format=${format}`, dir]);
  return dir;
}

function writer(gitDir: string, options: { hashLength?: number; known?: Promise<ReadonlySet<string>> } = {}) {
  return new BlobWriter(gitDir, {
    env: gitEnvironment(process.env),
    timeoutMs: 20_000,
    hashLength: options.hashLength ?? 40,
    ...(options.known === undefined ? {} : { known: options.known }),
  });
}

/** The bytes git holds under `id`, or undefined when it holds no such object. */
async function stored(gitDir: string, id: string): Promise<Buffer | undefined> {
  try {
    const { stdout } = await run('git', ['--git-dir', gitDir, 'cat-file', 'blob', id], {
      encoding: 'buffer',
    });
    return stdout;
  } catch {
    return undefined;
  }
}

async function gitId(gitDir: string, data: Buffer): Promise<string> {
  const child = execFile('git', ['--git-dir', gitDir, 'hash-object', '--stdin']);
  const out = new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout?.on('data', (chunk) => {
      text += String(chunk);
    });
    child.once('error', reject);
    child.once('close', () => resolve(text.trim()));
  });
  child.stdin?.end(data);
  return out;
}

describe('BlobWriter', () => {
  it('stores each blob once, under the id git gives it, once finished', async () => {
    const repo = await bareRepo();
    const blobs = writer(repo);
    const page = Buffer.from('# Install\n\nRun the installer.\n');
    const image = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0x0a]);
    const first = blobs.add(page);
    const second = blobs.add(image);
    expect(blobs.add(Buffer.from(page))).toEqual(first);
    await blobs.finish();

    expect(first).toEqual({ blob: await gitId(repo, page), size: page.length });
    expect(second).toEqual({ blob: await gitId(repo, image), size: image.length });
    expect(await stored(repo, first.blob)).toEqual(page);
    expect(await stored(repo, second.blob)).toEqual(image);
    expect(blobs.count).toBe(2);
    expect(await gitProcessesIn(repo)).toEqual([]);
  });

  it('writes nothing git holds, also when it learns what git holds after the bytes came', async () => {
    const repo = await bareRepo();
    const held = Buffer.from('held by git already\n');
    const fresh = Buffer.from('new in the service\n');
    let tell: (ids: ReadonlySet<string>) => void = () => undefined;
    const known = new Promise<ReadonlySet<string>>((resolve) => {
      tell = resolve;
    });
    const blobs = writer(repo, { known });
    const heldBlob = blobs.add(held);
    const freshBlob = blobs.add(fresh);
    // The repository does not really hold it: were it written, git would have it now.
    tell(new Set([heldBlob.blob]));
    await blobs.finish();
    expect(await stored(repo, heldBlob.blob)).toBeUndefined();
    expect(await stored(repo, freshBlob.blob)).toEqual(fresh);
    expect(blobs.count).toBe(1);
  });

  it('asks for a wait while git catches up, and stores everything handed over', async () => {
    const repo = await bareRepo();
    const blobs = writer(repo);
    const ids: string[] = [];
    let waits = 0;
    for (let i = 0; i < 300; i += 1) {
      ids.push(blobs.add(Buffer.alloc(64 * 1024, i % 251)).blob);
      if (blobs.congested) {
        waits += 1;
        await blobs.drained();
      }
    }
    await blobs.finish();
    expect(waits).toBeGreaterThan(0);
    expect(new Set(ids).size).toBe(251);
    for (const id of [ids[0], ids[150], ids[299]])
      expect(await stored(repo, id ?? '')).toHaveLength(64 * 1024);
  });

  it('stores nothing and leaves no git running when closed before it finished', async () => {
    const repo = await bareRepo();
    const blobs = writer(repo);
    const { blob } = blobs.add(Buffer.from('read, then the export failed\n'));
    blobs.close();
    await expect.poll(() => gitProcessesIn(repo)).toEqual([]);
    expect(await stored(repo, blob)).toBeUndefined();
  });

  it('refuses more and rejects its waits once closed, so that nobody waits on it', async () => {
    const repo = await bareRepo();
    const blobs = writer(repo);
    blobs.add(Buffer.from('before the export failed elsewhere\n'));
    blobs.close();
    expect(blobs.congested).toBe(true);
    expect(() => blobs.add(Buffer.from('too late\n'))).toThrow(
      expect.objectContaining({ code: 'GIT_ABORTED' }),
    );
    await expect(blobs.drained()).rejects.toMatchObject({ code: 'GIT_ABORTED' });
    await expect(blobs.finish()).rejects.toMatchObject({ code: 'GIT_ABORTED' });
  });

  it('rejects its waits and its finish when git is gone, rather than waiting for ever', async () => {
    const repo = await bareRepo();
    const blobs = writer(repo);
    blobs.add(Buffer.from('the first blob\n'));
    const [line] = await gitProcessesIn(repo);
    const pid = Number(/^\s*(\d+)/.exec(line ?? '')?.[1]);
    expect(pid).toBeGreaterThan(0);
    process.kill(pid, 'SIGKILL');
    await expect.poll(() => gitProcessesIn(repo)).toEqual([]);
    // Handed over after git died: the pipe fills and never drains.
    for (let i = 0; i < 100 && !blobs.congested; i += 1) blobs.add(Buffer.alloc(64 * 1024, i));
    expect(blobs.congested).toBe(true);
    await expect(blobs.drained()).rejects.toBeInstanceOf(GitError);
    await expect(blobs.finish()).rejects.toBeInstanceOf(GitError);
  });

  it('names blobs as a sha256 repository does', async () => {
    const repo = await bareRepo('sha256');
    const blobs = writer(repo, { hashLength: 64 });
    const data = Buffer.from('# Overview\n');
    const { blob } = blobs.add(data);
    await blobs.finish();
    expect(blob).toHaveLength(64);
    expect(blob).toBe(await gitId(repo, data));
    expect(await stored(repo, blob)).toEqual(data);
  });
});
