// Whether a webhook request comes from the git host docsync was configured with: GitHub signs the
// raw body with HMAC-SHA256 (`X-Hub-Signature-256`), GitLab sends a shared token (`X-Gitlab-Token`).
// Both are compared in constant time. Pure: headers and bytes in, a verdict out.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { GitProvider } from './parse-push-event.js';

export interface HookSecrets {
  /** The GitHub webhook secret; GitHub-shaped requests are refused without it. */
  secret?: string | undefined;
  /** The GitLab webhook token; GitLab-shaped requests are refused without it. */
  gitlabToken?: string | undefined;
}

export type HookHeaders = Record<string, string | string[] | undefined>;

export type HookVerdict =
  | { ok: true; provider: GitProvider; event: string }
  | { ok: false; provider: GitProvider | undefined; reason: HookRefusal };

export type HookRefusal =
  /** Neither a signature nor a token header. */
  | 'credentials missing'
  /** The request is shaped for a provider docsync has no secret for. */
  | 'provider not configured'
  | 'signature malformed'
  | 'signature mismatch'
  | 'token mismatch';

const GITHUB_SIGNATURE = /^sha256=([0-9a-f]{64})$/i;

/**
 * Which provider signed the request and with which event, once its credential checks out. The
 * credential decides the provider, so an unauthenticated request learns nothing about events.
 */
export function verifyHookRequest(secrets: HookSecrets, headers: HookHeaders, body: Buffer): HookVerdict {
  const signature = single(headers['x-hub-signature-256']);
  if (signature !== undefined) {
    if (!secrets.secret) return refuse('github', 'provider not configured');
    const match = GITHUB_SIGNATURE.exec(signature.trim());
    if (match?.[1] === undefined) return refuse('github', 'signature malformed');
    const expected = createHmac('sha256', secrets.secret).update(body).digest();
    if (!timingSafeEqual(expected, Buffer.from(match[1], 'hex')))
      return refuse('github', 'signature mismatch');
    return { ok: true, provider: 'github', event: single(headers['x-github-event']) ?? '' };
  }
  const token = single(headers['x-gitlab-token']);
  if (token !== undefined) {
    if (!secrets.gitlabToken) return refuse('gitlab', 'provider not configured');
    if (!sameSecret(token, secrets.gitlabToken)) return refuse('gitlab', 'token mismatch');
    return { ok: true, provider: 'gitlab', event: single(headers['x-gitlab-event']) ?? '' };
  }
  return refuse(undefined, 'credentials missing');
}

/** Equal texts, in a time that depends on neither their content nor their lengths. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function refuse(provider: GitProvider | undefined, reason: HookRefusal): HookVerdict {
  return { ok: false, provider, reason };
}
