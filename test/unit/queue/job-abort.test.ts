import { describe, expect, it } from 'vitest';
import { JobAbort } from '../../../src/queue/job-abort.js';

describe('the abort of a job run', () => {
  it('gives a signal aborted with the first reason, whether it is read before or after the abort', () => {
    const early = new JobAbort();
    const signal = early.signal;
    expect(signal.aborted).toBe(false);
    let heard: unknown;
    signal.addEventListener('abort', () => {
      heard = signal.reason;
    });
    early.abort(new Error('stopping'));
    early.abort(new Error('lock lost'));
    expect(early.aborted).toBe(true);
    expect((heard as Error).message).toBe('stopping');
    expect(early.signal).toBe(signal);

    const late = new JobAbort();
    late.abort(new Error('lock lost'));
    late.abort(new Error('stopping'));
    expect(late.signal.aborted).toBe(true);
    expect((late.signal.reason as Error).message).toBe('lock lost');
  });

  it("is shared by a job's calls in flight, a batch poll's hundreds, without a leak warning", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const { signal } = new JobAbort();
      const calls = Array.from({ length: 200 }, () => () => {});
      for (const call of calls) signal.addEventListener('abort', call, { once: true });
      // Node emits its warnings on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      for (const call of calls) signal.removeEventListener('abort', call);
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it('is not aborted until asked', () => {
    const abort = new JobAbort();
    expect(abort.aborted).toBe(false);
    expect(abort.signal.aborted).toBe(false);
  });
});
