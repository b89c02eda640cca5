import { describe, expect, it } from 'vitest';
import { baseUrl, listenUrl } from '../../../src/cli/status-command.js';
import { formatDuration, relativeTime } from '../../../src/status/format-time.js';

describe('the address docsync status asks', () => {
  it('takes --url with or without a scheme, a trailing slash or /status', () => {
    expect(baseUrl('http://127.0.0.1:8787')).toBe('http://127.0.0.1:8787');
    expect(baseUrl('127.0.0.1:9000/')).toBe('http://127.0.0.1:9000');
    expect(baseUrl('https://docsync.internal/ops/status?x=1')).toBe('https://docsync.internal/ops');
    expect(baseUrl('ftp://host')).toBeUndefined();
    expect(baseUrl('http://')).toBeUndefined();
  });

  it('reaches a docsync listening on every interface through this machine', () => {
    expect(listenUrl({ host: '127.0.0.1', port: 8787 })).toBe('http://127.0.0.1:8787');
    expect(listenUrl({ host: '0.0.0.0', port: 8080 })).toBe('http://127.0.0.1:8080');
    expect(listenUrl({ host: '::', port: 8080 })).toBe('http://[::1]:8080');
    expect(listenUrl({ host: 'fd00::1', port: 80 })).toBe('http://[fd00::1]:80');
  });
});

describe('times for people', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  it('says how long ago or until in the largest unit', () => {
    expect(relativeTime('2025-12-31T23:59:48Z', now)).toBe('12s ago');
    expect(relativeTime('2026-01-01T03:10:00Z', now)).toBe('in 3h');
    expect(relativeTime('2025-12-29T00:00:00Z', now)).toBe('3d ago');
    expect(relativeTime('2026-01-01T00:00:00.400Z', now)).toBe('now');
    expect(relativeTime('not a time', now)).toBe('not a time');
  });

  it('writes durations in their two largest units', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(250)).toBe('250ms');
    expect(formatDuration(30_000)).toBe('30s');
    expect(formatDuration(90 * 60_000)).toBe('1h 30m');
    expect(formatDuration(3_600_000 + 5000)).toBe('1h');
    expect(formatDuration(2 * 86_400_000)).toBe('2d');
  });
});
