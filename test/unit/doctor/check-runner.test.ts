import { describe, expect, it } from 'vitest';
import { CheckRunner, CheckTimeoutError } from '../../../src/doctor/check-runner.js';

function deferred() {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('CheckRunner', () => {
  it('runs checks side by side, never more than its concurrency at once', async () => {
    const runner = new CheckRunner({ timeoutMs: 10_000, concurrency: 2 });
    const gates = [deferred(), deferred(), deferred(), deferred()];
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const attempts = gates.map((gate, index) =>
      runner.attempt(async () => {
        started.push(index);
        running += 1;
        most = Math.max(most, running);
        await gate.promise;
        running -= 1;
        return index;
      }),
    );
    await Promise.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1]);
    for (const gate of gates) gate.resolve();
    const results = await Promise.all(attempts);
    expect(results).toEqual([0, 1, 2, 3].map((value) => ({ ok: true, value })));
    expect(most).toBe(2);
  });

  it('gives up on a check at its time limit, even one that ignores its signal', async () => {
    const runner = new CheckRunner({ timeoutMs: 50, concurrency: 1 });
    let aborted = false;
    const stuck = runner.attempt(
      (signal) =>
        new Promise<never>(() => {
          signal.addEventListener('abort', () => {
            aborted = true;
          });
        }),
    );
    const result = await stuck;
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toBeInstanceOf(CheckTimeoutError);
    expect(aborted).toBe(true);
    // Its slot is free again.
    expect(await runner.attempt(async () => 'next')).toEqual({ ok: true, value: 'next' });
  });

  it('hands a check the error it threw', async () => {
    const runner = new CheckRunner({ timeoutMs: 1000, concurrency: 1 });
    const error = new Error('refused');
    expect(await runner.attempt(() => Promise.reject(error))).toEqual({ ok: false, error });
  });

  it('stops every check when its signal fires, and starts none after', async () => {
    const stop = new AbortController();
    const runner = new CheckRunner({ timeoutMs: 60_000, concurrency: 1, signal: stop.signal });
    let started = 0;
    const running = deferred();
    const work = (signal: AbortSignal) =>
      new Promise<never>((_resolve, reject) => {
        started += 1;
        running.resolve();
        signal.addEventListener('abort', () => reject(signal.reason));
      });
    const first = runner.attempt(work);
    // The second waits for the only slot.
    const second = runner.attempt(work);
    await running.promise;
    stop.abort(new Error('shutting down'));
    const results = await Promise.all([first, second]);
    expect(results.map((result) => !result.ok && (result.error as Error).message)).toEqual([
      'shutting down',
      'shutting down',
    ]);
    expect(started).toBe(1);
  });
});
