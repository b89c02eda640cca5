import { describe, expect, it } from 'vitest';
import { soonestRuns } from '../../../src/status/next-runs.js';
import { newestFailures } from '../../../src/status/recent-failures.js';
import { partOrError, readStatusPart } from '../../../src/status/status-part.js';

const failed = (id: string, finishedOn: number | undefined, timestamp = 0) => ({
  id,
  name: 'poll-git',
  failedReason: `failed ${id}`,
  attemptsMade: 1,
  ...(finishedOn === undefined ? {} : { finishedOn }),
  timestamp,
});

describe('the failures part of /status', () => {
  it('merges the queues newest first and keeps the limit', () => {
    const failures = newestFailures(
      [
        { queue: 'import', jobs: [failed('i2', 4000), failed('i1', 1000)] },
        { queue: 'links', jobs: [failed('l1', 3000)] },
        { queue: 'openapi', jobs: [failed('o1', undefined, 2000)] },
      ],
      3,
    );
    expect(failures).toEqual([
      {
        queue: 'import',
        name: 'poll-git',
        id: 'i2',
        failedReason: 'failed i2',
        attemptsMade: 1,
        at: '1970-01-01T00:00:04.000Z',
      },
      expect.objectContaining({ queue: 'links', id: 'l1' }),
      expect.objectContaining({ queue: 'openapi', id: 'o1', at: '1970-01-01T00:00:02.000Z' }),
    ]);
  });
});

describe('the next runs part of /status', () => {
  it('lists schedulers soonest first with ISO times, and leaves out those without a next run', () => {
    expect(
      soonestRuns([
        {
          queue: 'import',
          schedulers: [{ key: 'poll-git/docs', name: 'poll-git', next: 5000, every: 30_000 }],
        },
        {
          queue: 'links',
          schedulers: [
            { key: 'links-schedule/docs', name: 'check-links', next: 2000, pattern: '0 * * * *', tz: 'UTC' },
            { key: 'links-schedule/ended', name: 'check-links' },
          ],
        },
      ]),
    ).toEqual([
      {
        queue: 'links',
        key: 'links-schedule/docs',
        name: 'check-links',
        next: '1970-01-01T00:00:02.000Z',
        pattern: '0 * * * *',
        tz: 'UTC',
      },
      {
        queue: 'import',
        key: 'poll-git/docs',
        name: 'poll-git',
        next: '1970-01-01T00:00:05.000Z',
        every: 30_000,
      },
    ]);
  });
});

describe('a part of /status', () => {
  it('gives its value, or its error in its place, without credentials', async () => {
    expect(partOrError(await readStatusPart(async () => [1]))).toEqual([1]);
    const failed = await readStatusPart(async () => {
      throw new Error('cannot reach redis://:secret@redis.internal:6379');
    });
    expect(partOrError(failed)).toEqual({ error: 'cannot reach redis://***@redis.internal:6379' });
  });

  it('gives up on a part that does not answer in time', async () => {
    const started = Date.now();
    const slow = await readStatusPart(() => new Promise<never>(() => {}), 50);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(partOrError(slow)).toEqual({ error: 'no answer within 50 ms' });
  });
});
