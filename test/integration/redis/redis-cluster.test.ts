// docsync on a local three-master Redis Cluster: a whole cycle (import, approval, merge) with a
// hash-tagged prefix, every key it writes in the one slot that tag names.
import { randomUUID } from 'node:crypto';
import { Cluster } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import { doctorRedisFinding } from '../../support/doctor-redis-finding.js';
import { createTestRepo } from '../../support/git-repos.js';
import { startRedisCluster } from '../../support/redis-cluster.js';
import { startDaemonOnRedis } from '../../support/start-daemon-on-redis.js';
import { callApi, createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import { waitFor } from '../../support/wait-for.js';

describe('docsync on a Redis Cluster', () => {
  it('imports, waits for the approval and merges, with every key in the slot of its hash tag', async () => {
    const cluster = await startRedisCluster();
    const emulator = await startTestEmulator();
    const space = await createTestSpace(emulator, 'Docs');
    const repo = await createTestRepo();
    await repo.commit({ 'docs/README.md': '# Welcome\n', 'docs/install.md': '# Install\n' }, 'First docs');
    await repo.push();
    const prefix = `{docsync-${randomUUID().slice(0, 8)}}`;
    const daemon = await startDaemonOnRedis({
      redis: `  cluster:\n    nodes: [${cluster.urls.join(', ')}]\n  prefix: "${prefix}"\n`,
      service: emulator,
      jobs: JOBS,
      yaml: `mappings:
  - name: docs
    space: ${space}
    git: { repo: ${repo.remote}, branch: main, dir: docs, poll: 1s }
    changeRequest: { poll: 1s }
    merge: { enabled: true, approvals: 1 }
`,
    });
    expect(
      await doctorRedisFinding(
        `  cluster:\n    nodes: [${cluster.urls.join(', ')}]\n  prefix: "${prefix}"\n`,
      ),
    ).toMatchObject({
      status: 'ok',
      message: `cluster ${cluster.urls.join(',')} answers (Redis Cluster, 3 master(s))`,
    });
    const client = daemon.redis.producer();
    expect(client).toBeInstanceOf(Cluster);
    // A node's socket sends the writes of a tick in one, as a single server's does.
    if (!(client instanceof Cluster)) throw new Error('not a Cluster');
    const node = await waitFor(
      () => client.nodes('master').find((one) => one.status === 'ready'),
      'a connected node',
    );
    const pongs = [node.ping(), node.ping()];
    expect(node.stream.writableCorked).toBe(1);
    expect(await Promise.all(pongs)).toEqual(['PONG', 'PONG']);
    expect(daemon.lines.find((line) => line.msg === 'redis connected')).toMatchObject({ mode: 'cluster' });

    const state = new RedisMappingStateStore(client, prefix);
    const cr = await waitFor(async () => (await state.get('docs')).changeRequestId, 'the import', 20_000);
    const review = await callApi(
      `${emulator.baseUrl}/spaces/${space}/change-requests/${cr}/reviews`,
      emulator.tokens.reviewer,
      'POST',
      { status: 'approved' },
    );
    expect(review.status).toBe(201);
    const merged = await waitFor(
      async () => {
        const answer = await callApi<{ status: string; revisionMerged?: string }>(
          `${emulator.baseUrl}/spaces/${space}/change-requests/${cr}`,
          emulator.tokens.admin,
        );
        return answer.body.status === 'merged' ? answer.body : undefined;
      },
      'the merge',
      20_000,
    );
    const main = await callApi<{ revision: string }>(
      `${emulator.baseUrl}/spaces/${space}`,
      emulator.tokens.admin,
    );
    expect(main.body.revision).toBe(merged.revisionMerged);

    // What people read, from the cluster too: /status and the queue gauges of /metrics.
    const status = (await (await fetch(`${daemon.httpAddress}/status`)).json()) as {
      mappings: Array<{ name: string }>;
    };
    expect(status.mappings.map((mapping) => mapping.name)).toEqual(['docs']);
    expect(await (await fetch(`${daemon.httpAddress}/metrics`)).text()).toMatch(/queue="import"/);

    // All of docsync's keys, BullMQ's and its own, sit on the one master that owns the tag's slot.
    const holding = await Promise.all(
      (client as Cluster).nodes('master').map(async (node) => (await node.keys(`${prefix}:*`)).length),
    );
    expect(holding.filter((count) => count > 0)).toHaveLength(1);
    expect(holding.reduce((sum, count) => sum + count, 0)).toBeGreaterThan(5);
  });
});
