// The daemon makes its queues and metrics once the app serves (BullMQ's and prom-client's modules
// load then): the app answers /healthz and /readyz before, and the routes that read the queues or the
// metrics wait until they are made rather than fail.
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load-config.js';
import { createHttpServer, type QueuesAndMetrics } from '../../../src/http/create-http-server.js';
import { DocsyncMetrics } from '../../../src/metrics/docsync-metrics.js';
import { Queues } from '../../../src/queue/queues.js';
import { closeAfter } from '../../support/close-after.js';
import { captureLog, redisUrl, testRedis, uniquePrefix } from '../../support/test-context.js';

async function appBeforeItsQueues() {
  const prefix = uniquePrefix('queues-later');
  const redis = testRedis(prefix);
  const config = parseConfig(`redis:\n  url: ${redisUrl()}\n  prefix: ${prefix}\n`, 'test.yaml', {});
  const { log } = captureLog();
  let make: (parts: QueuesAndMetrics) => void = () => {};
  const queuesAndMetrics = new Promise<QueuesAndMetrics>((resolve) => {
    make = resolve;
  });
  const app = await createHttpServer({
    log,
    token: undefined,
    redis,
    stopping: new AbortController().signal,
    version: '0.0.0-test',
    startedAt: new Date(),
    queuesAndMetrics,
    dashboard: { readOnly: true },
  });
  closeAfter(() => app.close());
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const makeThem = () => {
    const queues = new Queues(redis, config, log);
    closeAfter(() => queues.close());
    make({ queues, metrics: new DocsyncMetrics({ readers: { queueCounts: () => queues.counts() } }) });
  };
  return { address: `http://127.0.0.1:${port}`, makeThem };
}

describe('the HTTP app before the queues and metrics are made', () => {
  it('answers /healthz and /readyz at once, and /status, /metrics and /ui once they are made', async () => {
    const { address, makeThem } = await appBeforeItsQueues();
    const settled: string[] = [];
    const asked = ['/status', '/metrics', '/ui/api/queues'].map((path) =>
      fetch(`${address}${path}`).then((answer) => {
        settled.push(path);
        return answer;
      }),
    );
    expect((await fetch(`${address}/healthz`)).status).toBe(200);
    const ready = await fetch(`${address}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ok: true, redis: 'ok' });
    // Readiness answered; the others wait for the queues and metrics rather than fail without them.
    expect(settled).toEqual([]);

    makeThem();
    const [status, metrics, dashboard] = await Promise.all(asked);
    expect(status?.status).toBe(200);
    const body = (await status?.json()) as { queues: Record<string, unknown> };
    expect(Object.keys(body.queues)).toEqual(['import', 'maintain', 'export', 'openapi', 'links', 'notify']);
    expect(metrics?.status).toBe(200);
    expect(await metrics?.text()).toContain('docsync_queue_jobs');
    expect(dashboard?.status).toBe(200);
  });
});
