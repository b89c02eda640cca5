import { describe, expect, it } from 'vitest';
import { bundleKey, expiredBundleKeys, SWEEP_GRACE_MS } from '../../../src/artifacts/s3-bundle-keys.js';

const EXPIRES_MS = 15 * 60_000;
const NOW = Date.parse('2026-12-02T12:00:00Z');
const ID = 'AbCdEfGhIjKlMnOpQrStUvWx';

describe('expiredBundleKeys', () => {
  const old = new Date(NOW - EXPIRES_MS - SWEEP_GRACE_MS);
  const fresh = new Date(NOW - EXPIRES_MS - SWEEP_GRACE_MS + 1000);

  it('sweeps docsync bundles under the prefix once their address expired and the grace passed, and keeps fresher ones', () => {
    const objects = [
      { Key: bundleKey('imports/', ID), LastModified: old },
      { Key: bundleKey('imports/', `${ID}fresh`), LastModified: fresh },
    ];
    expect(expiredBundleKeys(objects, 'imports/', EXPIRES_MS, NOW)).toEqual([bundleKey('imports/', ID)]);
  });

  it('never sweeps an object docsync could not have written, however old', () => {
    const objects = [
      { Key: 'imports/report.zip', LastModified: old },
      // A name an id could have: letters, digits, - and _, 16 to 64 of them.
      { Key: 'imports/monthly-sales-2024.zip', LastModified: old },
      { Key: `imports/${ID}.zip`, LastModified: old },
      { Key: `imports/nested/${bundleKey('', ID)}`, LastModified: old },
      { Key: bundleKey('imports/', ID).replace(/\.zip$/, '.tar'), LastModified: old },
      { Key: bundleKey('other/', ID), LastModified: old },
      { Key: bundleKey('imports/', ID) },
    ];
    expect(expiredBundleKeys(objects, 'imports/', EXPIRES_MS, NOW)).toEqual([]);
  });

  it('reads a prefix with characters a pattern would take as operators literally', () => {
    const objects = [
      { Key: bundleKey('a.b+/', ID), LastModified: old },
      { Key: bundleKey('aXbb/', ID), LastModified: old },
    ];
    expect(expiredBundleKeys(objects, 'a.b+/', EXPIRES_MS, NOW)).toEqual([bundleKey('a.b+/', ID)]);
  });
});
