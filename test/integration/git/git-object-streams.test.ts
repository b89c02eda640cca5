import { randomBytes } from 'node:crypto';
import { chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GitMirror } from '../../../src/git/git-mirror.js';
import { collect } from '../../support/collect.js';
import { createGitFixture, type GitFixture } from './git-fixture.js';

let repo: GitFixture;
let mirror: GitMirror;
let sha: string;
const big = randomBytes(3 * 1024 * 1024);

beforeEach(async () => {
  repo = await createGitFixture();
  await repo.write({
    'docs/README.md': '# Start\n',
    'docs/guides/install.md': '# Install\n',
    'docs/assets/big.bin': big,
    'docs/empty.txt': '',
    'outside.md': '# Not in docs\n',
  });
  await repo.link('docs/latest.md', 'guides/install.md');
  await chmod(join(repo.work, 'docs/README.md'), 0o755);
  sha = repo.commit('content');
  repo.push();
  mirror = await repo.fetchedMirror();
});

afterEach(async () => {
  await repo.cleanup();
});

describe('GitMirror.listTree', () => {
  it('streams every file below the folder with its mode, blob and size', async () => {
    const entries = await collect(mirror.listTree(sha, 'docs'));
    expect(entries.map((entry) => [entry.path, entry.mode, entry.size])).toEqual([
      ['README.md', '100755', 8],
      ['assets/big.bin', '100644', big.length],
      ['empty.txt', '100644', 0],
      ['guides/install.md', '100644', 10],
      ['latest.md', '120000', 'guides/install.md'.length],
    ]);
    for (const entry of entries) expect(entry.blob).toMatch(/^[0-9a-f]{40}$/);
  });

  it('lists the whole repository for "."', async () => {
    const paths = (await collect(mirror.listTree(sha, '.'))).map((entry) => entry.path);
    expect(paths).toContain('outside.md');
    expect(paths).toContain('docs/README.md');
  });

  it('fails with GIT_NOT_FOUND for a folder that does not exist', async () => {
    await expect(collect(mirror.listTree(sha, 'nope'))).rejects.toMatchObject({ code: 'GIT_NOT_FOUND' });
  });
});

describe('GitMirror.readBlobs', () => {
  it('streams blob contents in the order asked, from a list or an async iterable', async () => {
    const entries = await collect(mirror.listTree(sha, 'docs'));
    const ids = entries.map((entry) => entry.blob).reverse();
    const fromList = await collect(mirror.readBlobs(ids));
    expect(fromList.map((item) => item.blob)).toEqual(ids);
    const byPath = new Map(
      entries.map((entry, index) => [entry.path, fromList[entries.length - 1 - index]?.data]),
    );
    expect(byPath.get('assets/big.bin')?.equals(big)).toBe(true);
    expect(byPath.get('empty.txt')?.length).toBe(0);
    expect(byPath.get('latest.md')?.toString()).toBe('guides/install.md');

    async function* lazily(): AsyncGenerator<string> {
      for (const entry of entries) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        yield entry.blob;
      }
    }
    const fromIterable = await collect(mirror.readBlobs(lazily()));
    expect(fromIterable.map((item) => item.data.length)).toEqual(entries.map((entry) => entry.size));
  });

  it('answers each id of an async iterable before it gives the next, as a reader of one file at a time does', async () => {
    const entries = await collect(mirror.listTree(sha, 'docs'));
    let answered: () => void = () => {};
    async function* oneAfterAnother(): AsyncGenerator<string> {
      for (const entry of entries) {
        const answer = new Promise<void>((resolve) => {
          answered = resolve;
        });
        yield entry.blob;
        await answer;
      }
    }
    const sizes: number[] = [];
    for await (const item of mirror.readBlobs(oneAfterAnother())) {
      sizes.push(item.data.length);
      answered();
    }
    expect(sizes).toEqual(entries.map((entry) => entry.size));
  });

  it('reads a list longer than the pipes hold both ways, at the pace of a slow consumer', async () => {
    const entries = await collect(mirror.listTree(sha, 'docs'));
    const small = entries.filter((entry) => entry.path !== 'assets/big.bin');
    const bigId = entries.find((entry) => entry.path === 'assets/big.bin')?.blob ?? '';
    // 20,000 ids (800 KiB written to git), the 3 MiB blob among them now and then.
    const asked = Array.from({ length: 20_000 }, (_, index) =>
      index % 5_000 === 2_500 ? bigId : (small[index % small.length]?.blob ?? ''),
    );
    let index = 0;
    for await (const item of mirror.readBlobs(asked)) {
      expect(item.blob).toBe(asked[index]);
      if (item.blob === bigId) expect(item.data.equals(big)).toBe(true);
      index += 1;
      if (index % 1_000 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(index).toBe(asked.length);
  });

  it('reads the same blob twice when asked twice, and nothing for no ids', async () => {
    const [readme] = await collect(mirror.listTree(sha, 'docs'));
    const id = readme?.blob ?? '';
    expect((await collect(mirror.readBlobs([id, id]))).map((item) => item.data.toString())).toEqual([
      '# Start\n',
      '# Start\n',
    ]);
    expect(await collect(mirror.readBlobs([]))).toEqual([]);
  });

  it('stops cleanly when the consumer leaves early', async () => {
    const ids = (await collect(mirror.listTree(sha, 'docs'))).map((entry) => entry.blob);
    for await (const item of mirror.readBlobs(ids)) {
      expect(item.blob).toBe(ids[0]);
      break;
    }
    // The mirror still answers: no process or lock was left behind.
    expect(await mirror.resolve('main')).toBe(sha);
  });

  it('fails with GIT_NOT_FOUND for a missing object and GIT_INVALID_INPUT for a non-id', async () => {
    await expect(collect(mirror.readBlobs(['e'.repeat(40)]))).rejects.toMatchObject({
      code: 'GIT_NOT_FOUND',
    });
    await expect(collect(mirror.readBlobs(['HEAD:docs/README.md']))).rejects.toMatchObject({
      code: 'GIT_INVALID_INPUT',
    });
  });

  it('passes on the error of the ids it reads', async () => {
    async function* failing(): AsyncGenerator<string> {
      yield* [];
      throw new Error('listing failed');
    }
    await expect(collect(mirror.readBlobs(failing()))).rejects.toThrow('listing failed');
  });
});
