import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import { requestPriority, reservedTokens, withRequestPriority } from '../../../src/api/request-priority.js';
import { SharedLimit } from '../../../src/concurrency/shared-limit.js';

describe('the priority of a request to the service', () => {
  it('puts writes first and reads after them', () => {
    expect(['POST', 'PUT', 'PATCH', 'DELETE'].map((method) => requestPriority(method as 'POST'))).toEqual([
      'high',
      'high',
      'high',
      'high',
    ]);
    expect(requestPriority('GET')).toBe('low');
    expect(requestPriority('HEAD')).toBe('low');
  });

  it('puts the reads of work that goes first (an import, a merge) with the writes, after any await', async () => {
    const read = await withRequestPriority('high', async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return requestPriority('GET');
    });
    expect(read).toBe('high');
    expect(withRequestPriority('low', () => requestPriority('POST'))).toBe('high');
    expect(requestPriority('GET')).toBe('low');
  });

  it('is high for the jobs people wait for, and low for the scheduled polls and link checks', async () => {
    // Each job's run, given nothing, fails at once: what matters is the priority it ran under.
    const seen = new Map<string, string>();
    for (const job of JOBS) {
      const probe = { get: () => seen.set(job.name, requestPriority('GET')) };
      await Promise.resolve(job.run(new Proxy({}, probe) as never, {} as never)).catch(() => undefined);
    }
    const high = [...seen].filter(([, priority]) => priority === 'high').map(([name]) => name);
    expect(high.sort()).toEqual([
      'export-space',
      'import-content',
      'merge-change-request',
      'update-change-request',
    ]);
    expect(seen.get('poll-git')).toBe('low');
    expect(seen.get('check-links')).toBe('low');
  });

  it('keeps a quarter of the budget, in whole tokens, from reads only', () => {
    expect(reservedTokens('low', 120)).toBe(30);
    expect(reservedTokens('low', 30)).toBe(7);
    expect(reservedTokens('high', 120)).toBe(0);
    // A budget of 1 to 3 requests keeps nothing back: a read could otherwise never go.
    expect([1, 2, 3].map((requests) => reservedTokens('low', requests))).toEqual([0, 0, 0]);
  });
});

describe('SharedLimit with a signal', () => {
  it('lets a waiter whose signal fires leave the line, and the next one go', async () => {
    const turns = new SharedLimit(1);
    const order: string[] = [];
    let release = () => {};
    const first = turns.run(
      () =>
        new Promise<void>((resolve) => {
          release = resolve;
        }),
      new AbortController().signal,
    );
    const stop = new AbortController();
    const second = turns.run(async () => {
      order.push('second');
    }, stop.signal);
    const third = turns.run(async () => {
      order.push('third');
    }, new AbortController().signal);
    stop.abort(new Error('stopped'));
    await expect(second).rejects.toThrow('stopped');
    release();
    await first;
    await third;
    expect(order).toEqual(['third']);
  });
});
