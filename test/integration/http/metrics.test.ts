import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import { QUEUE_NAMES } from '../../../src/queue/queue-names.js';
import { docsFixture } from '../../support/docs-fixture.js';
import { type Exposition, parsePrometheusText, samplesOf, sumOf } from '../../support/prometheus-text.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import { uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';
import { docsDaemonYaml } from './docs-daemon-yaml.js';

const TOKEN = 'a-metrics-token-for-tests';
const IMPORTED = { queue: 'import', name: 'import-content', result: 'completed' };

async function setUp() {
  const fixture = await docsFixture('metrics', '# Welcome\n\nSee [nowhere](nowhere.md).\n');
  const { emulator, repo } = fixture;
  const daemon = await startTestDaemon({
    prefix: uniquePrefix('metrics'),
    jobs: JOBS,
    yaml: `  token: ${TOKEN}
${docsDaemonYaml(fixture, {
  // The link check queued by an import waits for the import's space lock: not 5 s in a test.
  top: ['locks: { busyDelay: 200ms }'],
  docs: ['links: { every: 1h }'],
})}`,
  });
  const scrape = async (): Promise<Exposition> => {
    const answer = await fetch(`${daemon.httpAddress}/metrics`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(answer.status).toBe(200);
    return parsePrometheusText(await answer.text());
  };
  return { emulator, repo, daemon, scrape };
}

/** Histogram samples of one metric, grouped by their labels without `le`. */
function histograms(exposition: Exposition, name: string) {
  const groups = new Map<string, { labels: Record<string, string>; buckets: Array<[number, number]> }>();
  for (const sample of samplesOf(exposition, `${name}_bucket`)) {
    const { le, ...labels } = sample.labels;
    const key = JSON.stringify(labels);
    const group = groups.get(key) ?? { labels, buckets: [] };
    group.buckets.push([le === '+Inf' ? Number.POSITIVE_INFINITY : Number(le), sample.value]);
    groups.set(key, group);
  }
  return [...groups.values()];
}

describe('GET /metrics', () => {
  it('serves strict Prometheus text whose job, API, queue, link, spec and lag metrics move as jobs run', async () => {
    const { repo, scrape } = await setUp();

    // The first import, its link check (one broken link) and the spec's first version.
    const first = await waitFor(async () => {
      const now = await scrape();
      const ready =
        sumOf(now, 'docsync_jobs_total', IMPORTED) >= 1 &&
        samplesOf(now, 'docsync_broken_links', { mapping: 'docs', target: 'change-request' }).length === 1 &&
        samplesOf(now, 'docsync_broken_links', { mapping: 'docs', target: 'main' }).length === 1 &&
        sumOf(now, 'docsync_openapi_versions_total', { slug: 'pets' }) === 1;
      return ready ? now : undefined;
    }, 'the first import, its link check and the spec upload');

    for (const family of ['docsync_jobs_total', 'docsync_job_duration_seconds', 'docsync_queue_jobs'])
      expect(first.families.has(family), family).toBe(true);
    expect(first.families.get('docsync_jobs_total')?.type).toBe('counter');
    expect(first.families.get('docsync_job_duration_seconds')?.type).toBe('histogram');
    expect(first.families.get('docsync_sync_lag_seconds')?.type).toBe('histogram');
    // Node's process metrics, under docsync's prefix.
    expect(sumOf(first, 'docsync_process_cpu_user_seconds_total')).toBeGreaterThan(0);

    // Every job histogram: buckets rising to +Inf, which is its count, which is the jobs counted.
    const jobHistograms = histograms(first, 'docsync_job_duration_seconds');
    expect(jobHistograms.length).toBeGreaterThan(0);
    for (const { labels, buckets } of jobHistograms) {
      const counts = buckets.sort((a, b) => a[0] - b[0]).map(([, count]) => count);
      expect(counts).toEqual([...counts].sort((a, b) => a - b));
      expect(buckets.at(-1)?.[0]).toBe(Number.POSITIVE_INFINITY);
      expect(sumOf(first, 'docsync_job_duration_seconds_count', labels)).toBe(counts.at(-1));
      expect(sumOf(first, 'docsync_jobs_total', labels)).toBe(counts.at(-1));
    }
    expect(
      sumOf(first, 'docsync_jobs_total', { queue: 'import', name: 'poll-git', result: 'completed' }),
    ).toBeGreaterThanOrEqual(1);

    // API calls by method, route template and status; the import among them.
    expect(
      sumOf(first, 'docsync_api_requests_total', {
        method: 'POST',
        route: '/spaces/{}/change-requests/{}/content/import',
        status: '201',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sumOf(first, 'docsync_api_request_duration_seconds_count', {
        method: 'POST',
        route: '/spaces/{}/change-requests/{}/content/import',
      }),
    ).toBeGreaterThanOrEqual(1);
    for (const sample of samplesOf(first, 'docsync_api_requests_total'))
      expect(sample.labels.route).toMatch(/^(\/[a-z-]+|\/\{\})+$/);
    // No id of the service, nor a path, in any label (the spec's org is configuration).
    for (const sample of first.samples)
      for (const [label, value] of Object.entries(sample.labels))
        if (label !== 'org') expect(value, `${sample.name} ${label}`).not.toMatch(/spc_|cr_|rev_|pg_|oav_/);

    // Queue gauges for every queue, read from Redis.
    for (const queue of QUEUE_NAMES)
      expect(samplesOf(first, 'docsync_queue_jobs', { queue, state: 'waiting' })).toHaveLength(1);
    expect(
      sumOf(first, 'docsync_queue_jobs', { queue: 'import', state: 'completed' }),
    ).toBeGreaterThanOrEqual(1);

    expect(sumOf(first, 'docsync_broken_links', { mapping: 'docs', target: 'change-request' })).toBe(1);
    expect(sumOf(first, 'docsync_broken_links', { mapping: 'docs', target: 'main' })).toBe(0);
    expect(sumOf(first, 'docsync_openapi_refreshes_total', { slug: 'pets', result: 'uploaded' })).toBe(1);
    expect(sumOf(first, 'docsync_sync_lag_seconds_count', { mapping: 'docs' })).toBe(1);

    // Another commit: one more import, one more lag, and the link check of the fixed content.
    await repo.commit({ 'docs/README.md': '# Welcome\n\nSee [install](install.md).\n' }, 'Fix the link');
    await repo.push();
    const second = await waitFor(async () => {
      const now = await scrape();
      const ready =
        sumOf(now, 'docsync_jobs_total', IMPORTED) > sumOf(first, 'docsync_jobs_total', IMPORTED) &&
        sumOf(now, 'docsync_broken_links', { mapping: 'docs', target: 'change-request' }) === 0;
      return ready ? now : undefined;
    }, 'the second import and its link check');
    expect(sumOf(second, 'docsync_sync_lag_seconds_count', { mapping: 'docs' })).toBe(2);
    const lagSum = sumOf(second, 'docsync_sync_lag_seconds_sum', { mapping: 'docs' });
    expect(lagSum).toBeGreaterThanOrEqual(0);
    expect(lagSum).toBeLessThan(60);
    expect(sumOf(second, 'docsync_api_requests_total')).toBeGreaterThan(
      sumOf(first, 'docsync_api_requests_total'),
    );
  });

  it('needs the token when http.token is set', async () => {
    const { daemon } = await setUp();
    const without = await fetch(`${daemon.httpAddress}/metrics`);
    expect(without.status).toBe(401);
    const wrong = await fetch(`${daemon.httpAddress}/metrics`, {
      headers: { authorization: 'Bearer a-wrong-token-for-tests!' },
    });
    expect(wrong.status).toBe(401);
    const answer = await fetch(`${daemon.httpAddress}/metrics`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    parsePrometheusText(await answer.text());
  });
});
