// The due time of a scheduler's job, read from the id BullMQ gives it.
import { describe, expect, it } from 'vitest';
import { firstRunJobId, isScheduledRun, scheduledTickAt } from '../../../src/producers/scheduled-tick.js';

describe('scheduledTickAt', () => {
  it("reads the due time of a scheduler's job", () => {
    expect(scheduledTickAt('repeat:poll-git/docs:1764680400123')).toBe(1764680400123);
    // A mapping's name may hold a colon's neighbours: only the last part is the time.
    expect(scheduledTickAt('repeat:poll-git/team:a:1764680400123')).toBe(1764680400123);
  });

  it('has none for a job queued at once or by BullMQ without a scheduler', () => {
    expect(scheduledTickAt('poll-git/now/docs/push-abc')).toBeUndefined();
    expect(scheduledTickAt('1234')).toBeUndefined();
    expect(scheduledTickAt('repeat:poll-git/docs:')).toBeUndefined();
  });
});

describe('isScheduledRun', () => {
  it("tells a scheduler's ticks and first run from work queued at once", () => {
    expect(isScheduledRun('repeat:poll-git/docs:1764680400123')).toBe(true);
    expect(isScheduledRun(firstRunJobId('poll-git/docs', 1764680400123))).toBe(true);
    expect(isScheduledRun('poll-git/now/docs/push-abc')).toBe(false);
    expect(isScheduledRun('import/docs/0123abc')).toBe(false);
  });
});
