// The look at a repository that a git poll makes: one `ls-remote` when nothing changed (no fetch,
// and none of the reads a poll makes after it), shared by the mappings of that repository polled
// at the same tick, and a fetch only once the remote moved.
import { describe, expect, it } from 'vitest';
import { MirrorRegistry } from '../../../src/git/mirror-registry.js';
import { gitCallLog, gitSubcommand } from '../../support/git-call-log.js';
import { createTestRepo } from '../../support/git-repos.js';
import { captureLog, tempDir } from '../../support/test-context.js';

describe('a git poll of a repository that two mappings follow', () => {
  it('makes one look per poll, and fetches only when the remote moved', async () => {
    const repo = await createTestRepo();
    await repo.commit({ 'docs-a/README.md': '# A\n', 'docs-b/README.md': '# B\n' }, 'Two folders');
    await repo.push();
    const git = await gitCallLog();
    const mirrors = new MirrorRegistry({
      dataDir: await tempDir('data'),
      log: captureLog().log,
      env: { ...process.env, PATH: git.path },
    });
    // What the poll of one mapping asks the mirror, its tick the time its scheduler gave it.
    const poll = async (dir: string, tick: number) => {
      const mirror = mirrors.mirrorFor(repo.remote);
      await mirror.fetch(undefined, { since: tick });
      const head = await mirror.resolve('main');
      if (head === undefined) throw new Error('no main');
      expect(await mirror.isAncestor(head, head)).toBe(true);
      expect(await mirror.commitsTouching({ from: head, to: head }, dir)).toEqual([]);
      return head;
    };
    const pollBoth = async () => {
      const before = (await git.calls()).length;
      const tick = Date.now();
      const heads = [await poll('docs-a', tick), await poll('docs-b', tick)];
      const calls = (await git.calls()).slice(before).map(gitSubcommand);
      return { heads, calls };
    };

    // The first poll makes the mirror; the next reads the mirror's heads once beside its look.
    const first = await pollBoth();
    expect(first.calls.filter((call) => call === 'fetch')).toHaveLength(1);
    expect((await pollBoth()).calls).toEqual(['ls-remote', 'for-each-ref']);
    const unchanged = await pollBoth();
    expect(unchanged.calls).toEqual(['ls-remote']);
    expect(unchanged.heads).toEqual(first.heads);

    const pushed = await repo.commit({ 'docs-a/new.md': '# New\n' }, 'A new page');
    await repo.push();
    const moved = await pollBoth();
    expect(moved.calls.slice(0, 2)).toEqual(['ls-remote', 'fetch']);
    expect(moved.calls.filter((call) => call === 'ls-remote' || call === 'fetch')).toHaveLength(2);
    expect(moved.heads).toEqual([pushed, pushed]);
  });

  it('looks again for a poll asked for after the last look began', async () => {
    const repo = await createTestRepo();
    await repo.commit({ 'docs/README.md': '# Docs\n' }, 'Docs');
    await repo.push();
    const git = await gitCallLog();
    const mirror = new MirrorRegistry({
      dataDir: await tempDir('data'),
      log: captureLog().log,
      env: { ...process.env, PATH: git.path },
    }).mirrorFor(repo.remote);
    await mirror.fetch();
    const looks = async () => (await git.calls()).map(gitSubcommand).filter((call) => call === 'ls-remote');
    const before = (await looks()).length;
    // A push's poll is asked for after the look: it must not take that look's answer.
    const pushed = await repo.commit({ 'docs/pushed.md': '# Pushed\n' }, 'Pushed');
    await repo.push();
    await mirror.fetch(undefined, { since: Date.now() });
    expect(await mirror.resolve('main')).toBe(pushed);
    expect((await looks()).length).toBe(before + 1);
    // Nor the answer of a look still running that began before it was due: it looks after it.
    const running = mirror.fetch();
    await Promise.all([running, mirror.fetch(undefined, { since: Date.now() + 1 }), mirror.fetch()]);
    expect((await looks()).length).toBe(before + 3);
  });
});
