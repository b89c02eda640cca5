import { describe, expect, it } from 'vitest';
import { requestPriority, reservedTokens } from '../../../src/api/request-priority.js';
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
