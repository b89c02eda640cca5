// The lock check of the processes tests (test/support/space-write-spans.ts) must find what breaks
// the per-space lock, and must not blame a job for the time the service took to note a response.
import { describe, expect, it } from 'vitest';
import type { LoggedRequest } from '../../support/service-request-log.js';
import { lockProblems } from '../../support/space-write-spans.js';

const TOKEN = 'docsync-token';
const T = 1_800_000_000_000;

function merge(door: number, start: number, end: number): LoggedRequest {
  return {
    route: 'POST /v1/spaces/:s/change-requests/:cr/merge',
    space: 'spc_1',
    token: TOKEN,
    door,
    status: 200,
    start: T + start,
    end: T + end,
  };
}

/** A `job completed` line of a job holding spc_1 that ran from `from` to `to` (ms after T). */
function completed(job: string, from: number, to: number) {
  return {
    msg: 'job completed',
    name: 'merge-change-request',
    job,
    lockKey: 'spc_1',
    durationMs: to - from,
    time: new Date(T + to).toISOString(),
  };
}

describe('the lock check of the processes tests', () => {
  it('finds two jobs of two processes writing to one space at the same time', () => {
    const { problems, writingJobs } = lockProblems([merge(0, 10, 20), merge(1, 30, 40)], TOKEN, [
      { door: 0, lines: [completed('a', 0, 50)] },
      { door: 1, lines: [completed('b', 25, 60)] },
    ]);
    expect(writingJobs).toBe(2);
    expect(problems).toEqual([
      'merge-change-request a (door 0) and merge-change-request b (door 1) wrote to spc_1 at the same time',
    ]);
  });

  it('finds a write that no job holding the space sent', () => {
    const { problems } = lockProblems([merge(0, 70, 80)], TOKEN, [
      { door: 0, lines: [completed('a', 0, 50)] },
    ]);
    expect(problems).toEqual([
      `POST /v1/spaces/:s/change-requests/:cr/merge on spc_1 by door 0 at ${T + 70} came from no job holding spc_1`,
    ]);
  });

  it('passes jobs that took turns, also when the service noted a response after the job ended', () => {
    const { problems, writingJobs } = lockProblems([merge(0, 10, 58), merge(1, 60, 70)], TOKEN, [
      { door: 0, lines: [completed('a', 0, 50)] },
      { door: 1, lines: [completed('b', 40, 80)] },
    ]);
    expect(writingJobs).toBe(2);
    expect(problems).toEqual([]);
  });
});
