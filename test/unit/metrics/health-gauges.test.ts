// /metrics counts mappings and specs by health state, read at each scrape by the rule of /status.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load-config.js';
import { DocsyncMetrics } from '../../../src/metrics/docsync-metrics.js';
import { readHealthCounts } from '../../../src/metrics/read-health-counts.js';
import { memoryStores } from '../../../src/state/memory-stores.js';
import { parsePrometheusText, samplesOf, sumOf } from '../../support/prometheus-text.js';

const CONFIG = parseConfig(
  `service: { baseUrl: "http://127.0.0.1:9/v1", token: test-token }
health: { failingAfter: 2 }
mappings:
  - { name: fine, space: spc_1, git: { repo: /none/1.git, branch: main } }
  - { name: flaky, space: spc_2, git: { repo: /none/2.git, branch: main } }
  - { name: broken, space: spc_3, git: { repo: /none/3.git, branch: main } }
  - { name: held, space: spc_4, git: { repo: /none/4.git, branch: main } }
openapi:
  - { org: org_1, slug: pets, every: 1h, source: "https://specs.example/pets.yaml" }
`,
  'test.yaml',
  {},
);

const failure = { at: '2026-11-21T10:00:00.000Z', code: 'API_HTTP_ERROR', message: '401' };

describe('the health gauges of /metrics', () => {
  it('count the mappings and specs in each state, every state present, fresh at each scrape', async () => {
    const stores = memoryStores();
    await stores.mappings.recordFailure('flaky', 'poll-git', failure);
    await stores.mappings.recordFailure('broken', 'poll-change-requests', failure);
    await stores.mappings.recordFailure('broken', 'poll-change-requests', failure);
    await stores.mappings.update('held', { paused: { reason: 'manual', detail: 'held', at: failure.at } });
    await stores.openapi.update('org_1', 'pets', { failures: { count: 2, since: failure.at } });
    const metrics = new DocsyncMetrics({ readers: { health: () => readHealthCounts(CONFIG, stores) } });

    let text = parsePrometheusText(await metrics.text());
    const states = (name: string) =>
      Object.fromEntries(samplesOf(text, name).map((sample) => [sample.labels.state, sample.value]));
    expect(states('docsync_mappings')).toEqual({ ok: 1, degraded: 1, failing: 1, paused: 1 });
    expect(states('docsync_openapi_specs')).toEqual({ ok: 0, degraded: 0, failing: 1, paused: 0 });

    await stores.mappings.recordSuccess('broken', 'poll-change-requests');
    await stores.openapi.update('org_1', 'pets', { failures: undefined });
    text = parsePrometheusText(await metrics.text());
    expect(sumOf(text, 'docsync_mappings', { state: 'failing' })).toBe(0);
    expect(sumOf(text, 'docsync_mappings', { state: 'ok' })).toBe(2);
    expect(sumOf(text, 'docsync_openapi_specs', { state: 'ok' })).toBe(1);
  });

  it('are left out, not stale, when the state cannot be read', async () => {
    const errors: string[] = [];
    const metrics = new DocsyncMetrics({
      readers: { health: () => Promise.reject(new Error('redis does not answer')) },
      onReadError: (metric) => errors.push(metric),
    });
    const text = parsePrometheusText(await metrics.text());
    expect(samplesOf(text, 'docsync_mappings')).toEqual([]);
    expect(errors.sort()).toEqual(['docsync_mappings', 'docsync_openapi_specs']);
  });
});
