import { register } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { type BrokenLinkCount, DocsyncMetrics } from '../../../src/metrics/docsync-metrics.js';
import type { QueueCounts } from '../../../src/queue/queues.js';
import { parsePrometheusText, samplesOf, sumOf } from '../../support/prometheus-text.js';

async function scrape(metrics: DocsyncMetrics) {
  return parsePrometheusText(await metrics.text());
}

const EMPTY_COUNTS: QueueCounts = {
  waiting: 0,
  active: 0,
  delayed: 0,
  prioritized: 0,
  'waiting-children': 0,
  completed: 0,
  failed: 0,
};

describe('DocsyncMetrics', () => {
  it('keeps each instance apart, and out of prom-client’s global registry', async () => {
    const one = new DocsyncMetrics();
    const two = new DocsyncMetrics();
    one.jobFinished('import', 'import-content', 'completed', 1500);
    expect(sumOf(await scrape(one), 'docsync_jobs_total')).toBe(1);
    expect(sumOf(await scrape(two), 'docsync_jobs_total')).toBe(0);
    expect(await register.metrics()).not.toContain('docsync_');
  });

  it('counts a job and puts its duration in seconds in the buckets', async () => {
    const metrics = new DocsyncMetrics();
    metrics.jobFinished('links', 'check-links', 'delayed', 30);
    const labels = { queue: 'links', name: 'check-links', result: 'delayed' };
    const text = await scrape(metrics);
    expect(sumOf(text, 'docsync_jobs_total', labels)).toBe(1);
    expect(sumOf(text, 'docsync_job_duration_seconds_sum', labels)).toBeCloseTo(0.03);
    expect(sumOf(text, 'docsync_job_duration_seconds_bucket', { ...labels, le: '0.025' })).toBe(0);
    expect(sumOf(text, 'docsync_job_duration_seconds_bucket', { ...labels, le: '0.05' })).toBe(1);
  });

  it('keeps each queue, job and outcome in its own series over many jobs', async () => {
    const metrics = new DocsyncMetrics();
    for (let i = 0; i < 3; i += 1) metrics.jobFinished('links', 'check-links', 'completed', 10);
    metrics.jobFinished('links', 'check-links', 'failed', 10);
    metrics.jobFinished('maintain', 'check-links', 'completed', 10);
    const text = await scrape(metrics);
    const of = (queue: string, result: string) =>
      sumOf(text, 'docsync_jobs_total', { queue, name: 'check-links', result });
    expect([of('links', 'completed'), of('links', 'failed'), of('maintain', 'completed')]).toEqual([3, 1, 1]);
    expect(
      sumOf(text, 'docsync_job_duration_seconds_count', {
        queue: 'links',
        name: 'check-links',
        result: 'completed',
      }),
    ).toBe(3);
  });

  it('counts every API attempt by route template and status, and a 429 retry as a rate-limit wait', async () => {
    const metrics = new DocsyncMetrics();
    metrics.apiCall({ method: 'GET', route: '/spaces/{}', status: 429, durationMs: 12 });
    metrics.apiRetry({ method: 'GET', route: '/spaces/{}', status: 429, delayMs: 2000 });
    metrics.apiCall({ method: 'GET', route: '/spaces/{}', status: 503, durationMs: 8 });
    metrics.apiRetry({ method: 'GET', route: '/spaces/{}', status: 503, delayMs: 250 });
    metrics.apiCall({ method: 'GET', route: '/spaces/{}', status: 200, durationMs: 20 });
    metrics.rateLimitWait('queue', 5000);
    const text = await scrape(metrics);
    const route = { method: 'GET', route: '/spaces/{}' };
    expect(samplesOf(text, 'docsync_api_requests_total').map((s) => [s.labels.status, s.value])).toEqual([
      ['429', 1],
      ['503', 1],
      ['200', 1],
    ]);
    expect(sumOf(text, 'docsync_api_request_duration_seconds_count', route)).toBe(3);
    expect(sumOf(text, 'docsync_api_retries_total', route)).toBe(2);
    expect(sumOf(text, 'docsync_rate_limit_waits_total', { waiter: 'client' })).toBe(1);
    expect(sumOf(text, 'docsync_rate_limit_wait_seconds_total', { waiter: 'client' })).toBe(2);
    expect(sumOf(text, 'docsync_rate_limit_waits_total', { waiter: 'queue' })).toBe(1);
    expect(sumOf(text, 'docsync_rate_limit_wait_seconds_total', { waiter: 'queue' })).toBe(5);
  });

  it('takes a lag below zero (a committer clock ahead) as none', async () => {
    const metrics = new DocsyncMetrics();
    metrics.syncLag('docs', -30);
    metrics.syncLag('docs', 90);
    const text = await scrape(metrics);
    expect(sumOf(text, 'docsync_sync_lag_seconds_count', { mapping: 'docs' })).toBe(2);
    expect(sumOf(text, 'docsync_sync_lag_seconds_sum', { mapping: 'docs' })).toBe(90);
    expect(sumOf(text, 'docsync_sync_lag_seconds_bucket', { mapping: 'docs', le: '1' })).toBe(1);
  });

  it('reads queue counts and broken links at each scrape, and leaves out a gauge whose read fails', async () => {
    let counts = { import: { ...EMPTY_COUNTS, waiting: 3 } };
    let links: BrokenLinkCount[] | Error = [{ mapping: 'docs', target: 'change-request', count: 2 }];
    const failures: string[] = [];
    const metrics = new DocsyncMetrics({
      readers: {
        queueCounts: async () => counts,
        brokenLinks: async () => {
          if (links instanceof Error) throw links;
          return links;
        },
      },
      onReadError: (metric) => failures.push(metric),
    });
    let text = await scrape(metrics);
    expect(sumOf(text, 'docsync_queue_jobs', { queue: 'import', state: 'waiting' })).toBe(3);
    expect(samplesOf(text, 'docsync_queue_jobs', { queue: 'import' })).toHaveLength(7);
    expect(sumOf(text, 'docsync_broken_links', { mapping: 'docs', target: 'change-request' })).toBe(2);

    counts = { import: { ...EMPTY_COUNTS, waiting: 1 } };
    links = new Error('redis does not answer');
    text = await scrape(metrics);
    expect(sumOf(text, 'docsync_queue_jobs', { queue: 'import', state: 'waiting' })).toBe(1);
    expect(samplesOf(text, 'docsync_broken_links')).toEqual([]);
    expect(failures).toEqual(['docsync_broken_links']);

    links = [];
    text = await scrape(metrics);
    expect(samplesOf(text, 'docsync_broken_links')).toEqual([]);
    expect(failures).toHaveLength(1);
  });

  it('counts spec refreshes by result and new versions', async () => {
    const metrics = new DocsyncMetrics();
    metrics.openApiRefresh('org_1', 'pets', 'uploaded');
    metrics.openApiVersion('org_1', 'pets');
    metrics.openApiRefresh('org_1', 'pets', 'unchanged');
    const text = await scrape(metrics);
    expect(sumOf(text, 'docsync_openapi_versions_total', { org: 'org_1', slug: 'pets' })).toBe(1);
    expect(sumOf(text, 'docsync_openapi_refreshes_total', { slug: 'pets' })).toBe(2);
  });

  it('adds Node’s process metrics under docsync’s prefix only when asked', async () => {
    const text = await scrape(new DocsyncMetrics({ processMetrics: true }));
    expect(text.families.has('docsync_process_cpu_user_seconds_total')).toBe(true);
    expect(text.families.has('docsync_nodejs_heap_size_used_bytes')).toBe(true);
    expect((await scrape(new DocsyncMetrics())).families.has('docsync_process_cpu_user_seconds_total')).toBe(
      false,
    );
  });
});
