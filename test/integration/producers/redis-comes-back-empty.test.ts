// Issue 36: Redis comes back empty under a running docsync (a Redis without persistence restarted by
// its orchestrator, an operator's FLUSHALL). The polls' job schedulers live only in Redis: docsync
// puts them back within one poll interval, once however many processes share that Redis.
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import { schedulersMarkerKey } from '../../../src/producers/redis-loss-watch.js';
import { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import { closeAfter } from '../../support/close-after.js';
import { createTestRepo } from '../../support/git-repos.js';
import { completedRuns } from '../../support/job-runs.js';
import { parsePrometheusText } from '../../support/prometheus-text.js';
import { startRedisProcess } from '../../support/redis-process.js';
import { startTestDaemon, type TestDaemon } from '../../support/start-test-daemon.js';
import { callApi, createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import { uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const RESTORED = 'redis came back empty, schedulers restored';
/** The git poll of the mapping: the schedulers must be back within one. */
const POLL_MS = 4000;

type LogLine = Record<string, unknown>;

async function setUp(name: string, daemons: number) {
  const server = await startRedisProcess({ label: name });
  const url = `redis://127.0.0.1:${server.port}`;
  const emulator = await startTestEmulator();
  const space = await createTestSpace(emulator, 'Docs');
  const repo = await createTestRepo();
  await repo.commit({ 'docs/README.md': '# Welcome\n' }, 'Write the first docs');
  await repo.push();
  const prefix = uniquePrefix(name);
  const yaml = `mappings:
  - name: docs
    space: ${space}
    git: { repo: ${repo.remote}, branch: main, dir: docs, poll: ${POLL_MS}ms }
`;
  const started: TestDaemon[] = [];
  for (let n = 0; n < daemons; n += 1)
    started.push(
      await startTestDaemon({
        prefix,
        redis: `  url: ${url}\n  prefix: ${prefix}\n`,
        jobs: JOBS,
        service: emulator,
        yaml,
      }),
    );
  // The test's own client: it waits through the restart, as docsync's workers do.
  const client = new Redis(url, { maxRetriesPerRequest: null });
  // Refused while the server restarts: it reconnects by itself.
  client.on('error', () => {});
  closeAfter(() => client.quit());
  const state = new RedisMappingStateStore(client, prefix);
  const imported = (sha: string) =>
    waitFor(
      async () => ((await state.get('docs')).lastImportedSha === sha ? true : undefined),
      `the import of ${sha.slice(0, 7)}`,
      30_000,
    );
  return { server, emulator, space, repo, prefix, daemons: started, client, imported };
}

const restoreLines = (daemons: readonly TestDaemon[]): LogLine[] =>
  daemons.flatMap((daemon) => daemon.lines.filter((line) => line.msg === RESTORED));

/** The daemon's looks for the marker with this result, from its /metrics. */
async function looks(daemon: TestDaemon, result: string): Promise<number> {
  const text = await (await fetch(`${daemon.httpAddress}/metrics`)).text();
  const sample = parsePrometheusText(text).samples.find(
    (candidate) => candidate.name === 'docsync_redis_loss_checks_total' && candidate.labels.result === result,
  );
  return sample?.value ?? 0;
}

async function schedulerIds(daemon: TestDaemon): Promise<string[]> {
  const queues = ['import', 'maintain', 'export', 'links', 'openapi'] as const;
  const all = await Promise.all(queues.map((queue) => daemon.queues.get(queue).getJobSchedulers()));
  return all.flat().map((scheduler) => scheduler.key);
}

describe('a Redis that comes back empty under a running docsync', () => {
  it('gets its schedulers back within one poll interval after a restart and a FLUSHALL, and commits after them are imported', async () => {
    const { server, emulator, space, repo, daemons, client, imported } = await setUp('restart', 1);
    const [daemon] = daemons;
    if (daemon === undefined) throw new Error('no daemon');
    await imported(await repo.git('rev-parse', 'HEAD'));
    const before = await schedulerIds(daemon);
    expect(before).toEqual(['poll-git/docs', 'poll-change-requests/docs']);

    // The orchestrator restarts a Redis that keeps nothing: killed, then started again empty.
    await server.kill();
    await startRedisProcess({ label: 'restart-again', port: server.port });
    const back = Date.now();
    // Cleanups run last registered first: the daemon stops before the Redis it now runs on.
    closeAfter(() => daemon.shutdown.run('test finished'));

    const [restored] = await waitFor(
      () => (restoreLines(daemons).length > 0 ? restoreLines(daemons) : undefined),
      'the schedulers restored',
      2 * POLL_MS,
    );
    expect(Date.parse(String(restored?.time))).toBeLessThan(back + POLL_MS);
    expect(restored).toMatchObject({ level: 'warn', prefix: expect.any(String) });
    expect((await schedulerIds(daemon)).sort()).toEqual([...before].sort());

    // A commit made after the loss is imported: the polls run again.
    const polls = completedRuns(daemon.lines, 'poll-git').length;
    const sha = await repo.commit({ 'docs/after.md': '# After the restart\n' }, 'Write after the restart');
    await repo.push();
    await imported(sha);
    expect(completedRuns(daemon.lines, 'poll-git').length).toBeGreaterThan(polls);
    const { items } = (
      await callApi<{ items: Array<{ id: string }> }>(
        `${emulator.baseUrl}/spaces/${space}/change-requests`,
        emulator.tokens.admin,
      )
    ).body;
    const titles = await Promise.all(
      items.map(async (cr) =>
        (
          await callApi<{ pages: Array<{ title: string }> }>(
            `${emulator.baseUrl}/spaces/${space}/change-requests/${cr.id}/content/pages`,
            emulator.tokens.admin,
          )
        ).body.pages.map((page) => page.title),
      ),
    );
    expect(titles.flat()).toContain('After the restart');
    // Into the change request docsync kept before the loss, found again by its subject.
    expect(items).toHaveLength(1);
    expect(restoreLines(daemons)).toHaveLength(1);

    // Then an operator's FLUSHALL, scripts too: the connections stay, so only the periodic look can
    // tell, and every script docsync and BullMQ call by hash is unknown on a connection that knew it.
    const flushed = Date.now();
    await client.flushall();
    await client.script('FLUSH');
    await waitFor(() => restoreLines(daemons).length === 2, 'the schedulers restored again', 2 * POLL_MS);
    expect(Date.now()).toBeLessThan(flushed + POLL_MS);
    expect((await schedulerIds(daemon)).sort()).toEqual([...before].sort());
    const last = await repo.commit({ 'docs/flushed.md': '# After the flush\n' }, 'Write after the flush');
    await repo.push();
    await imported(last);
  }, 60_000);

  it('is restored once, not once per process, when three processes share the Redis that restarted', async () => {
    const { server, repo, prefix, daemons, client, imported } = await setUp('three', 3);
    await imported(await repo.git('rev-parse', 'HEAD'));
    await waitFor(
      async () => (await Promise.all(daemons.map((daemon) => looks(daemon, 'present')))).every((n) => n > 0),
      'a look of each process at the marker',
      2 * POLL_MS,
    );

    // Restarted empty: the three reconnect within moments of each other, and each looks at once.
    await server.kill();
    await startRedisProcess({ label: 'three-again', port: server.port });
    const back = Date.now();
    for (const daemon of daemons) closeAfter(() => daemon.shutdown.run('test finished'));
    await waitFor(() => restoreLines(daemons).length > 0, 'the schedulers restored', 2 * POLL_MS);
    expect(Date.now()).toBeLessThan(back + POLL_MS);
    // Every process looks again after the restore: each finds the marker back and does nothing.
    const before = await Promise.all(daemons.map((daemon) => looks(daemon, 'present')));
    await waitFor(
      async () =>
        (await Promise.all(daemons.map((daemon) => looks(daemon, 'present')))).every(
          (n, index) => n > (before[index] ?? 0),
        ),
      'a look of each process after the restore',
      2 * POLL_MS,
    );
    expect(restoreLines(daemons)).toHaveLength(1);
    const restored = await Promise.all(daemons.map((daemon) => looks(daemon, 'restored')));
    expect(restored.reduce((sum, n) => sum + n, 0)).toBe(1);
    for (const daemon of daemons)
      expect((await schedulerIds(daemon)).sort()).toEqual(['poll-change-requests/docs', 'poll-git/docs']);
    expect(await client.exists(schedulersMarkerKey(prefix))).toBe(1);
    expect(await client.exists(`${prefix}:lock:restore-schedulers`)).toBe(0);

    // And the polls run again: a commit after the restart is imported.
    const sha = await repo.commit({ 'docs/after.md': '# After the restart\n' }, 'Write after the restart');
    await repo.push();
    await imported(sha);
  }, 60_000);
});
