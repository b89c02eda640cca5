// Issue 36: the link checks and merge verdicts docsync keeps in Redis are a cache. Lost (Redis came
// back empty), the next change request poll sees a revision no check has seen and checks it
// again: docsync's link comment is found by its marker and kept, edited when the links change, never
// posted twice; the verdicts are recomputed by the same poll.
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import { createTestRepo } from '../../support/git-repos.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import { callApi, createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import { tempDir, testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

interface ThreadComment {
  id: string;
  status: string;
  editedAt?: string;
  body: { markdown: string };
}

interface Verdict {
  number: number;
  mergeable: boolean;
  reasons: string[];
}

describe('link checks and verdicts lost from Redis', () => {
  it('are found again by the next poll: the same link comment kept, then edited, never a second one', async () => {
    const emulator = await startTestEmulator();
    const space = await createTestSpace(emulator, 'Docs');
    const repo = await createTestRepo();
    await repo.commit(
      {
        'docs/README.md': '# Welcome\n\nSee [install](install.md).\n',
        'docs/install.md': '[x](missing.md)\n',
      },
      'Docs with a broken link',
    );
    await repo.push();
    const prefix = uniquePrefix('link-state-lost');
    const redis = testRedis(prefix);
    const daemon = await startTestDaemon({
      prefix,
      jobs: JOBS,
      service: emulator,
      dataDir: await tempDir('daemon-data'),
      yaml: `mappings:
  - name: docs
    space: ${space}
    git: { repo: ${repo.remote}, branch: main, dir: docs, poll: 1s }
    changeRequest: { poll: 1s }
    merge: { enabled: true, approvals: 1, noBrokenLinks: true }
`,
    });
    const state = new RedisMappingStateStore(redis, prefix);
    const cr = await waitFor(async () => (await state.get('docs')).changeRequestId, 'the first import');
    const comments = async () =>
      (
        await callApi<{ items: ThreadComment[] }>(
          `${emulator.baseUrl}/spaces/${space}/change-requests/${cr}/comments?status=all`,
          emulator.tokens.admin,
        )
      ).body.items;
    const verdicts = async () =>
      (
        (await (await fetch(`${daemon.httpAddress}/status`)).json()) as {
          mappings: Array<{ changeRequests: Verdict[] }>;
        }
      ).mappings[0]?.changeRequests ?? [];
    const verdictNaming = (reason: string) =>
      waitFor(
        async () => (await verdicts()).find((verdict) => verdict.reasons.includes(reason)),
        `a verdict naming "${reason}"`,
      );
    const linkKeys = async () => [
      ...(await redis.keys(`${prefix}:state:links*`)),
      ...(await redis.keys(`${prefix}:state:verdicts*`)),
    ];

    const [posted] = await waitFor(async () => {
      const found = await comments();
      return found.length > 0 ? found : undefined;
    }, 'the link comment');
    expect(posted?.body.markdown).toContain('missing.md');
    const before = await verdictNaming('1 broken link');

    // Redis loses the link checks and the verdicts.
    const lost = await linkKeys();
    expect(lost.length).toBeGreaterThanOrEqual(3);
    expect(await redis.del(...lost)).toBe(lost.length);

    // The next poll checks the revision again and judges the change request again.
    await waitFor(async () => (await redis.exists(`${prefix}:state:links:${space}:${cr}`)) === 1, 'a check');
    expect(await verdictNaming('1 broken link')).toEqual({ ...before, at: expect.any(String) });
    expect(await comments()).toEqual([posted]);

    // Another link breaks: the same comment, edited.
    await repo.commit({ 'docs/README.md': '# Welcome\n\nSee [usage](usage.md).\n' }, 'Another broken link');
    await repo.push();
    await verdictNaming('2 broken links');
    const edited = await waitFor(async () => {
      const found = await comments();
      return found[0]?.body.markdown.includes('usage.md') ? found : undefined;
    }, 'the edited comment');
    expect(edited).toHaveLength(1);
    expect(edited[0]).toMatchObject({ id: posted?.id, status: 'open', editedAt: expect.any(String) });
  });
});
