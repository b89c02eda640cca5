import { describe, expect, it } from 'vitest';
import { bundleKey, expiredBundleKeys } from '../../../src/artifacts/s3-bundle-keys.js';

const EXPIRES_MS = 15 * 60_000;
const NOW = Date.parse('2026-12-02T12:00:00Z');
const ID = 'AbCdEfGhIjKlMnOpQrStUvWx';

describe('expiredBundleKeys', () => {
  const old = new Date(NOW - EXPIRES_MS);
  const fresh = new Date(NOW - EXPIRES_MS + 1000);

  it('sweeps docsync bundles under the prefix once their address expired, and keeps fresher ones', () => {
    const objects = [
      { Key: bundleKey('imports/', ID), LastModified: old },
      { Key: bundleKey('imports/', `${ID}fresh`), LastModified: fresh },
    ];
    expect(expiredBundleKeys(objects, 'imports/', EXPIRES_MS, NOW)).toEqual([`imports/${ID}.zip`]);
  });

  it('never sweeps an object docsync could not have written, however old', () => {
    const objects = [
      { Key: 'imports/report.zip', LastModified: old },
      { Key: `imports/nested/${ID}.zip`, LastModified: old },
      { Key: `imports/${ID}.tar`, LastModified: old },
      { Key: `other/${ID}.zip`, LastModified: old },
      { Key: `imports/${ID}.zip` },
    ];
    expect(expiredBundleKeys(objects, 'imports/', EXPIRES_MS, NOW)).toEqual([]);
  });

  it('reads a prefix with characters a pattern would take as operators literally', () => {
    const objects = [
      { Key: `a.b+/${ID}.zip`, LastModified: old },
      { Key: `aXbb/${ID}.zip`, LastModified: old },
    ];
    expect(expiredBundleKeys(objects, 'a.b+/', EXPIRES_MS, NOW)).toEqual([`a.b+/${ID}.zip`]);
  });
});
