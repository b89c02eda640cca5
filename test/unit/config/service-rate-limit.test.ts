import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load-config.js';
import { configProblems } from '../../support/config-problems.js';

const SERVICE = 'service:\n  baseUrl: https://docs.example.com/v1\n  token: secret-token-value\n';

describe('service.rateLimit', () => {
  it('reads the shared budget as requests per window in milliseconds', () => {
    const config = parseConfig(`${SERVICE}  rateLimit: { requests: 120, per: 1m }\n`, 'docsync.yaml', {});
    expect(config.service?.rateLimit).toEqual({ requests: 120, per: 60_000 });
  });

  it('is absent unless set: each process then sends as it needs', () => {
    expect(parseConfig(SERVICE, 'docsync.yaml', {}).service?.rateLimit).toBeUndefined();
  });

  it('refuses a budget of no requests and a window without a unit', () => {
    const text = `${SERVICE}  rateLimit: { requests: 0, per: 60 }\n`;
    expect(configProblems(() => parseConfig(text, 'docsync.yaml', {}))).toEqual([
      expect.stringMatching(/^service\.rateLimit\.requests: .*>=1/),
      expect.stringMatching(/^service\.rateLimit\.per: .*duration/),
    ]);
  });
});
