// Scheduled link checks of a space's live content: one BullMQ job scheduler per mapping with a
// `links` schedule, run by the daemon's workers against the local service, the result recorded.
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import type { MappingConfig } from '../../../src/config/mapping-schema.js';
import { syncLinkCheckSchedulers } from '../../../src/producers/link-check-schedulers.js';
import { RedisLinkCheckStore } from '../../../src/state/redis-link-check-store.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import {
  addRevision,
  createTestSpace,
  startTestEmulator,
  testPage,
} from '../../support/start-test-emulator.js';
import { captureLog, testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

type ScheduledMapping = Pick<MappingConfig, 'name' | 'space' | 'links'>;

describe('scheduled link checks of the main content', () => {
  it('runs the check on its schedule and records the broken links with the service stats', async () => {
    const emulator = await startTestEmulator();
    const space = await createTestSpace(emulator);
    const main = addRevision(emulator.emulator, { spaceId: space }, [
      { ...testPage('page_intro', 'intro'), markdown: '# Intro\n\nSee [gone](gone.md) and [faq](faq.md).\n' },
      testPage('page_faq', 'faq'),
    ]);
    const prefix = uniquePrefix('link-schedule');
    const redis = testRedis(prefix);
    const daemon = await startTestDaemon({ prefix, jobs: JOBS, service: emulator });
    const { log } = captureLog();
    const mappings: ScheduledMapping[] = [
      { name: 'docs', space, links: { every: 60 * 60_000, comment: true } },
    ];
    await syncLinkCheckSchedulers(daemon.queues.get('links'), mappings, log);

    // An `every` scheduler's first tick is now.
    const store = new RedisLinkCheckStore(redis, prefix);
    const check = await waitFor(() => store.get(space, undefined), 'the scheduled link check');
    expect(check).toMatchObject({
      revision: main.id,
      broken: [{ pageId: 'page_intro', pageTitle: 'Page intro', target: 'gone.md' }],
      stats: { total: 2, broken: { total: 1 } },
    });
    expect(check.stats?.broken.changeRequest).toBeUndefined();
    expect(daemon.lines.find((line) => line.msg === 'link broken')).toMatchObject({
      change: 'new',
      target: 'gone.md',
      space,
      revision: main.id,
    });
  });

  it('keeps one scheduler per scheduled mapping, with its cron pattern and zone, and removes the others', async () => {
    const prefix = uniquePrefix('link-schedulers');
    testRedis(prefix);
    const daemon = await startTestDaemon({ prefix });
    const queue = daemon.queues.get('links');
    const { log, lines } = captureLog();
    const mapping = (name: string, links: ScheduledMapping['links']): ScheduledMapping => ({
      name,
      space: `space_${name}`,
      links,
    });
    await syncLinkCheckSchedulers(
      queue,
      [
        mapping('nightly', { pattern: '0 6 * * *', tz: 'Europe/Paris', comment: true }),
        mapping('hourly', { every: 60 * 60_000, comment: true }),
        mapping('never', { comment: true }),
      ],
      log,
    );
    // Another kind of scheduler on the same queue is not docsync's link schedule: left alone.
    await queue.upsertJobScheduler('other/thing', { every: 60 * 60_000 }, { name: 'other' });
    const schedulers = await queue.getJobSchedulers();
    expect(schedulers.map((scheduler) => scheduler.key).sort()).toEqual([
      'links-schedule/hourly',
      'links-schedule/nightly',
      'other/thing',
    ]);
    expect(schedulers.find((scheduler) => scheduler.key === 'links-schedule/nightly')).toMatchObject({
      name: 'check-links',
      pattern: '0 6 * * *',
      tz: 'Europe/Paris',
      template: { data: { space: 'space_nightly', revision: 'latest' } },
    });

    await syncLinkCheckSchedulers(queue, [mapping('hourly', { every: 60 * 60_000, comment: true })], log);
    expect((await queue.getJobSchedulers()).map((scheduler) => scheduler.key).sort()).toEqual([
      'links-schedule/hourly',
      'other/thing',
    ]);
    expect(lines.find((line) => line.msg === 'job scheduler no longer configured deleted')).toMatchObject({
      kind: 'check-links',
      scheduler: 'links-schedule/nightly',
    });
  });
});
