import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from '../../../src/config/duration.js';
import { isLoopback, listenAddressSchema } from '../../../src/config/listen-address.js';

describe('parseDuration', () => {
  it.each([
    ['500ms', 500],
    ['30s', 30_000],
    ['1.5m', 90_000],
    ['2h', 7_200_000],
    ['1d', 86_400_000],
    [' 10 s ', 10_000],
  ])('reads %s as %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['30', 's', '1w', '-1s', '1h30m', ''])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  it('writes durations back in their largest whole unit', () => {
    expect([formatDuration(90_000), formatDuration(3_600_000), formatDuration(1500)]).toEqual([
      '90s',
      '1h',
      '1500ms',
    ]);
  });
});

describe('http.listen', () => {
  it.each([
    ['127.0.0.1:8787', { host: '127.0.0.1', port: 8787 }],
    ['[::1]:9000', { host: '::1', port: 9000 }],
    [':8080', { host: '0.0.0.0', port: 8080 }],
    ['localhost:0', { host: 'localhost', port: 0 }],
  ])('reads %s', (text, address) => {
    expect(listenAddressSchema.parse(text)).toEqual(address);
  });

  it.each(['8787', '127.0.0.1', '127.0.0.1:70000', 'a:b'])('refuses %s', (text) => {
    expect(listenAddressSchema.safeParse(text).success).toBe(false);
  });

  it('knows which hosts only this machine reaches', () => {
    expect(['127.0.0.1', '127.1.2.3', '::1', 'localhost'].map(isLoopback)).toEqual([true, true, true, true]);
    expect(['0.0.0.0', '10.0.0.1', '::', 'docsync.internal'].map(isLoopback)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});
