// Signed artifact addresses, as pure functions: which ids are acceptable, the HMAC that binds an id
// to its expiry, and its verification in constant time. The store and the route do the I/O.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The ids docsync accepts, all safe as file names; `reserve()` hands out 24 characters (144 random bits). */
export const ARTIFACT_ID_PATTERN = '[A-Za-z0-9_-]{16,64}';
const ARTIFACT_ID = new RegExp(`^${ARTIFACT_ID_PATTERN}$`);
const EXPIRES = /^\d{1,16}$/;
const SIGNATURE = /^[0-9a-f]{64}$/i;

/** The shortest secret docsync signs with, in bytes. */
export const MIN_SECRET_BYTES = 32;

export function newArtifactId(): string {
  return randomBytes(18).toString('base64url');
}

export function isArtifactId(id: string): boolean {
  return ARTIFACT_ID.test(id);
}

/**
 * The signing key: the configured one when given, so that every process behind one publicUrl signs
 * alike; otherwise random for this process, so addresses die with it.
 */
export function artifactSecret(configured?: string): Buffer {
  if (configured !== undefined && configured !== '') return Buffer.from(configured, 'utf8');
  return randomBytes(MIN_SECRET_BYTES);
}

/** Hex HMAC-SHA256 of `${id}.${expires}`: the id and the expiry cannot change apart from it. */
export function signArtifact(secret: Buffer, id: string, expires: number): string {
  return createHmac('sha256', secret).update(`${id}.${expires}`).digest('hex');
}

export type SignatureCheck =
  | { ok: true; expires: number }
  /** `malformed`: the id, expiry or signature is not even in the shape docsync writes. */
  | { ok: false; reason: 'malformed' | 'signature' | 'expired' };

/**
 * Whether an address's parts are the ones docsync signed, and still valid at `nowMs`. The signature
 * is checked before the expiry, so an altered expiry is reported as a bad signature.
 */
export function checkArtifactSignature(
  secret: Buffer,
  parts: { id: string; expires: string | undefined; signature: string | undefined },
  nowMs: number,
): SignatureCheck {
  const { id, expires, signature } = parts;
  if (
    !isArtifactId(id) ||
    expires === undefined ||
    !EXPIRES.test(expires) ||
    signature === undefined ||
    !SIGNATURE.test(signature)
  ) {
    return { ok: false, reason: 'malformed' };
  }
  const expiresMs = Number(expires);
  const expected = createHmac('sha256', secret).update(`${id}.${expiresMs}`).digest();
  // The text must be the one signed too: `0123` and `123` are the same number, not the same address.
  const given = Buffer.from(signature, 'hex');
  if (String(expiresMs) !== expires || !timingSafeEqual(expected, given)) {
    return { ok: false, reason: 'signature' };
  }
  if (expiresMs <= nowMs) return { ok: false, reason: 'expired' };
  return { ok: true, expires: expiresMs };
}
