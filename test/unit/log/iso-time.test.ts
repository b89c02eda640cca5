import { afterEach, describe, expect, it, vi } from 'vitest';
import { isoTime } from '../../../src/log/iso-time.js';
import { captureLog } from '../../support/test-context.js';

describe('the time of a log line', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is the ISO time of the millisecond the line was written, as pino writes it', () => {
    vi.useFakeTimers({ now: new Date('2026-11-28T21:47:49.061Z') });
    expect(isoTime()).toBe(',"time":"2026-11-28T21:47:49.061Z"');
    expect(isoTime()).toBe(',"time":"2026-11-28T21:47:49.061Z"');
    vi.advanceTimersByTime(1);
    expect(isoTime()).toBe(',"time":"2026-11-28T21:47:49.062Z"');
    vi.setSystemTime(new Date('2027-01-01T00:00:00.000Z'));
    const { log, lines } = captureLog();
    log.info('later');
    expect(lines[0]).toMatchObject({ time: '2027-01-01T00:00:00.000Z', msg: 'later' });
  });
});
