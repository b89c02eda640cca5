// A repository whose push webhooks arrive is polled as a safety net only: after a signed push
// webhook, the scheduled polls of its mapping (git.poll 1s) make no git call until hooks.safetyPoll
// has passed; then one look finds a commit that no webhook announced, imports it, and docsync polls
// every git.poll again. The git processes are counted by a git on PATH that logs its command lines.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import { closeAfter } from '../../support/close-after.js';
import { gitCallLog, gitSubcommand } from '../../support/git-call-log.js';
import { createTestRepo } from '../../support/git-repos.js';
import { nextRuns } from '../../support/job-runs.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import { createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import { stateWhere } from '../../support/state-where.js';
import { testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const HOOK_SECRET = 'a-webhook-secret-for-tests';

async function pushHookShown(address: string): Promise<unknown> {
  const status = (await (await fetch(`${address}/status`)).json()) as { mappings: { pushHook?: unknown }[] };
  return status.mappings[0]?.pushHook;
}

describe('a repository whose push webhooks arrive', () => {
  it('is looked at only every hooks.safetyPoll, and every git.poll again once a push came without its webhook', {
    timeout: 60_000,
  }, async () => {
    const repo = await createTestRepo();
    await repo.commit({ 'docs/README.md': '# Docs\n' }, 'The docs');
    await repo.push();
    const emulator = await startTestEmulator();
    const space = await createTestSpace(emulator, 'Docs');
    const git = await gitCallLog();
    const path = process.env.PATH;
    process.env.PATH = git.path;
    closeAfter(() => {
      process.env.PATH = path;
    });
    const prefix = uniquePrefix('hooked-repository');
    const state = new RedisMappingStateStore(testRedis(prefix), prefix);
    const daemon = await startTestDaemon({
      prefix,
      jobs: JOBS,
      service: emulator,
      yaml: `hooks: { secret: ${HOOK_SECRET}, safetyPoll: 12s }
mappings:
  - { name: docs, space: ${space}, git: { repo: ${repo.remote}, branch: main, dir: docs, poll: 1s }, changeRequest: { poll: 1h } }
`,
    });
    const head = await repo.git('rev-parse', 'HEAD');
    await stateWhere(state, 'docs', (s) => s.lastImportedSha === head, 'the first import');
    const looks = async () =>
      (await git.calls()).map(gitSubcommand).filter((call) => call === 'ls-remote' || call === 'fetch')
        .length;

    const body = JSON.stringify({
      ref: 'refs/heads/main',
      after: head,
      repository: { clone_url: repo.remote },
    });
    const answer = await fetch(`${daemon.httpAddress}/hooks/git`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'push',
        'x-hub-signature-256': `sha256=${createHmac('sha256', HOOK_SECRET).update(body).digest('hex')}`,
      },
      body,
    });
    expect(answer.status).toBe(202);
    // The webhook's own poll looks at once; the scheduled ticks after it do not.
    await waitFor(
      () =>
        daemon.lines.some(
          (line) => line.msg === 'job completed' && String(line.job).startsWith('poll-git/now/docs/push-'),
        ) || undefined,
      "the webhook's poll",
    );
    await nextRuns([daemon.lines], 'poll-git', 1);
    const before = await looks();
    const ticks = await nextRuns([daemon.lines], 'poll-git', 3);
    expect(ticks.map((line) => line.result)).toEqual(['hooked', 'hooked', 'hooked']);
    expect(await looks()).toBe(before);
    // /status tells why the mapping's repository is not looked at every second.
    expect(await pushHookShown(daemon.httpAddress)).toEqual({ at: expect.any(String), looksEvery: 12_000 });

    // A push whose webhook is lost: found by the safety look, imported, and the hook forgotten.
    const unannounced = await repo.commit({ 'docs/quiet.md': '# Quiet\n' }, 'Pushed without a webhook');
    await repo.push();
    await stateWhere(
      state,
      'docs',
      (s) => s.lastImportedSha === unannounced,
      'the import of the safety look',
      30_000,
    );
    expect(
      daemon.lines.filter((line) => String(line.msg).startsWith('a commit came without its push webhook')),
    ).toHaveLength(1);
    const after = await looks();
    const polled = await nextRuns([daemon.lines], 'poll-git', 2);
    expect(polled.map((line) => line.result)).not.toContain('hooked');
    expect(await looks()).toBeGreaterThanOrEqual(after + 2);
    expect(await pushHookShown(daemon.httpAddress)).toBeUndefined();
  });
});
