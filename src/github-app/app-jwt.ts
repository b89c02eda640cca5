// The JSON Web Token a GitHub App proves itself with when it asks for an installation token: RS256,
// issued a minute in the past (GitHub's advice against clock drift), valid 9 minutes (GitHub takes
// at most 10), its issuer the app id. Pure but for the signature; the clock comes in.
import { createSign, type KeyObject } from 'node:crypto';

/** GitHub's documented rules: iat 60 s in the past, exp no more than 10 minutes after iat. */
export const JWT_BACKDATE_SECONDS = 60;
export const JWT_LIFETIME_SECONDS = 9 * 60;

function base64url(value: string | Buffer): string {
  return Buffer.from(value).toString('base64url');
}

export function signAppJwt(appId: string, key: KeyObject, nowMs: number): string {
  const now = Math.floor(nowMs / 1000);
  const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
  const payload = base64url(
    JSON.stringify({ iat: now - JWT_BACKDATE_SECONDS, exp: now + JWT_LIFETIME_SECONDS, iss: appId }),
  );
  const signature = createSign('RSA-SHA256').update(`${header}.${payload}`).sign(key);
  return `${header}.${payload}.${base64url(signature)}`;
}
