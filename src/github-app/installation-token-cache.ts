// One GitHub App installation's token, minted when first asked for and handed to every caller until
// shortly before GitHub's own expires_at: five minutes before, or halfway through its life when that
// is shorter, so that a push that starts with it ends before it stops working. Callers who ask while
// a mint is under way share it; a failed mint is not kept, the next caller mints again.
import type { InstallationToken } from './request-installation-token.js';

/** How long before expires_at a token is renewed, at most. */
export const RENEW_BEFORE_EXPIRY_MS = 5 * 60_000;

/** When a token minted at `mintedAtMs` should be replaced: pure, for the tests to read. */
export function renewAtMs(mintedAtMs: number, expiresAtMs: number): number {
  const lifetime = Math.max(0, expiresAtMs - mintedAtMs);
  return expiresAtMs - Math.min(RENEW_BEFORE_EXPIRY_MS, lifetime / 2);
}

export interface InstallationTokenCache {
  /** A token valid for a while yet: the cached one, or a new one. */
  token(signal?: AbortSignal): Promise<string>;
  /** Drops `token` when it is the cached one (GitHub revoked it early): the next caller mints. */
  forget(token: string): void;
}

/**
 * `mint` asks GitHub; it gets no caller's signal (bounded by its own deadline), so that one caller
 * giving up does not fail the others sharing the mint.
 */
export function installationTokenCache(
  mint: () => Promise<InstallationToken>,
  now: () => number = Date.now,
): InstallationTokenCache {
  let current: { token: string; renewAtMs: number } | undefined;
  let minting: Promise<string> | undefined;

  function startMint(): Promise<string> {
    const mintedAtMs = now();
    const promise = mint().then((minted) => {
      current = { token: minted.token, renewAtMs: renewAtMs(mintedAtMs, minted.expiresAtMs) };
      return minted.token;
    });
    minting = promise;
    // Whatever the outcome, the next caller after this mint decides afresh.
    promise.then(
      () => clearMint(promise),
      () => clearMint(promise),
    );
    return promise;
  }

  function clearMint(promise: Promise<string>): void {
    if (minting === promise) minting = undefined;
  }

  return {
    token(signal) {
      if (current !== undefined && now() < current.renewAtMs) return Promise.resolve(current.token);
      return abortable(minting ?? startMint(), signal);
    },
    forget(token) {
      if (current?.token === token) current = undefined;
    },
  };
}

/** `promise`, or a rejection with the signal's reason as soon as `signal` aborts. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
