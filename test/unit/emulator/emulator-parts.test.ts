import { describe, expect, it } from 'vitest';
import { parseTokens } from '../../../src/cli/emulator-command.js';
import { Faults, parseFaultSpec } from '../../../src/emulator/faults.js';
import { pageOf } from '../../../src/emulator/page-list.js';

describe('the Page envelope', () => {
  const items = Array.from({ length: 7 }, (_, i) => ({ seq: i + 1 }));

  it('walks every item exactly once, even when items are added between pages', () => {
    const first = pageOf(items, { limit: '3' }, (item) => item.seq);
    expect(first.items).toEqual([1, 2, 3]);
    const grown = [...items, { seq: 8 }];
    const second = pageOf(grown, { limit: '3', page: first.next?.page }, (item) => item.seq);
    const third = pageOf(grown, { limit: '3', page: second.next?.page }, (item) => item.seq);
    expect([...second.items, ...third.items]).toEqual([4, 5, 6, 7, 8]);
    expect(third.next).toBeUndefined();
  });

  it('refuses limits past 1000 and cursors it did not give out', () => {
    expect(() => pageOf(items, { limit: '1001' }, (item) => item)).toThrow(
      'limit must be a whole number from 1 to 1000',
    );
    expect(() => pageOf(items, { page: 'bogus' }, (item) => item)).toThrow(
      'page is not a cursor this list gave out',
    );
  });
});

describe('--faults', () => {
  it('reads latency, rates, retry-after and seed', () => {
    expect(parseFaultSpec('latency=50ms,429=0.1,5xx=0.05,retry-after=2,seed=7')).toMatchObject({
      latencyMs: 50,
      rate429: 0.1,
      rate5xx: 0.05,
      retryAfterSeconds: 2,
      seed: 7,
    });
    expect(() => parseFaultSpec('429=2')).toThrow('give a rate from 0 to 1');
    expect(() => parseFaultSpec('timeout=1s')).toThrow('unknown fault "timeout"');
  });

  it('draws the same faults for the same seed', () => {
    const draw = () => {
      const faults = new Faults(parseFaultSpec('429=0.3,5xx=0.3,seed=42'));
      return Array.from({ length: 20 }, () => faults.decide('GET', '/v1/orgs').answer?.status ?? 200);
    };
    const first = draw();
    expect(draw()).toEqual(first);
    expect(new Set(first)).toEqual(new Set([200, 429, 503]));
  });

  it('answers forced faults for matching requests only, as many times as asked', () => {
    const faults = new Faults(parseFaultSpec(''));
    faults.set({ ...faults.config, forced: [{ status: 503, method: 'POST', path: '/merge$', times: 2 }] });
    expect(faults.decide('GET', '/v1/spaces/s/change-requests/1/merge').answer).toBeUndefined();
    expect(faults.decide('POST', '/v1/spaces/s/change-requests/1/merge').answer).toEqual({ status: 503 });
    expect(faults.decide('POST', '/v1/spaces/s/change-requests/1/merge').answer).toEqual({ status: 503 });
    expect(faults.decide('POST', '/v1/spaces/s/change-requests/1/merge').answer).toBeUndefined();
  });
});

describe('--token', () => {
  it('makes the first token the admin and reads name=token:role for the others', () => {
    expect(parseTokens(['demo', 'Rita=rt:secret:review'])).toEqual([
      { name: 'Admin', token: 'demo', role: 'admin' },
      { name: 'Rita', token: 'rt:secret', role: 'review' },
    ]);
  });

  it('refuses a malformed member without printing its token', () => {
    expect(() => parseTokens(['demo', 'Rita=secret-value:boss'])).toThrow(
      '--token <hidden>: write name=token:role',
    );
    expect(() => parseTokens(['demo', 'Rita=secret-value:boss'])).not.toThrow(/secret-value/);
    expect(() => parseTokens([])).toThrow('give at least one --token');
  });
});
