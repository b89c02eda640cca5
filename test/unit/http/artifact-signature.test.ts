import { describe, expect, it } from 'vitest';
import {
  artifactSecret,
  checkArtifactSignature,
  isArtifactId,
  newArtifactId,
  signArtifact,
} from '../../../src/artifacts/artifact-signature.js';

const secret = artifactSecret('a-configured-secret-of-32-characters!');
const id = 'abcdefghijklmnopqrstuvwx';
const NOW = 1_700_000_000_000;
const expires = NOW + 60_000;
const signature = signArtifact(secret, id, expires);
const check = (
  parts: { id?: string; expires?: string | undefined; signature?: string | undefined },
  now = NOW,
) =>
  checkArtifactSignature(
    secret,
    {
      id: parts.id ?? id,
      expires: 'expires' in parts ? parts.expires : String(expires),
      signature: 'signature' in parts ? parts.signature : signature,
    },
    now,
  );

describe('artifact signatures', () => {
  it('accept the address docsync signed, until it expires', () => {
    expect(check({})).toEqual({ ok: true, expires });
    expect(check({}, expires - 1)).toEqual({ ok: true, expires });
  });

  it('accept the signature in upper-case hex', () => {
    expect(check({ signature: signature.toUpperCase() })).toEqual({ ok: true, expires });
  });

  it('refuse a tampered id', () => {
    expect(check({ id: 'abcdefghijklmnopqrstuvwy' })).toEqual({ ok: false, reason: 'signature' });
  });

  it('refuse a tampered expiry, later or written another way', () => {
    expect(check({ expires: String(expires + 1) })).toEqual({ ok: false, reason: 'signature' });
    expect(check({ expires: `0${expires}` })).toEqual({ ok: false, reason: 'signature' });
  });

  it('refuse a tampered signature', () => {
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`;
    expect(check({ signature: flipped })).toEqual({ ok: false, reason: 'signature' });
  });

  it('refuse a signature made with another secret', () => {
    const other = signArtifact(artifactSecret(), id, expires);
    expect(check({ signature: other })).toEqual({ ok: false, reason: 'signature' });
  });

  it('refuse an expired address, from the very millisecond it expires', () => {
    expect(check({}, expires)).toEqual({ ok: false, reason: 'expired' });
    expect(check({}, expires + 3_600_000)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuse addresses not in the shape docsync writes', () => {
    for (const parts of [
      { expires: undefined },
      { signature: undefined },
      { expires: '-1' },
      { expires: '1e13' },
      { signature: 'zz' },
      { signature: `${signature}00` },
      { id: '../../etc/passwd' },
      { id: 'short' },
    ]) {
      expect(check(parts), JSON.stringify(parts)).toEqual({ ok: false, reason: 'malformed' });
    }
  });
});

describe('artifact ids', () => {
  it('are url-safe, unique, and safe as file names', () => {
    const ids = new Set(Array.from({ length: 100 }, () => newArtifactId()));
    expect(ids.size).toBe(100);
    for (const each of ids) {
      expect(each).toMatch(/^[A-Za-z0-9_-]{24}$/);
      expect(isArtifactId(each)).toBe(true);
    }
    for (const bad of [
      '',
      '.',
      '..',
      'a/b',
      'a\\b',
      'x'.repeat(65),
      `${'x'.repeat(20)}.zip`,
      `${'x'.repeat(20)}\0`,
    ])
      expect(isArtifactId(bad), bad).toBe(false);
  });
});

describe('artifactSecret', () => {
  it('uses the configured secret, so several processes sign alike', () => {
    const configured = 'shared-between-processes-32-chars!!';
    expect(artifactSecret(configured).equals(Buffer.from(configured))).toBe(true);
    expect(artifactSecret(configured).equals(artifactSecret(configured))).toBe(true);
  });

  it('is random per call without one', () => {
    expect(artifactSecret().length).toBe(32);
    expect(artifactSecret().equals(artifactSecret())).toBe(false);
    expect(artifactSecret('').length).toBe(32);
  });
});
