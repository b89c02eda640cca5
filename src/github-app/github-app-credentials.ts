// The credentials of a remote reached as a GitHub App (`git.auth.githubApp`): installation tokens
// minted with the app's key and cached until shortly before they expire, handed to git as the
// password of `x-access-token` through docsync's credential helper, and to commit statuses.
//
// Signature (src/git/credentials-for.ts calls it, once per repository, when the daemon starts):
//   githubAppCredentials(auth, { repo, log, now?, baseEnv?, cwd? }): GitHubAppCredentials
//   - auth: the mapping's `git.auth` of kind 'github-app'; repo: its `git.repo` (HTTPS).
//   - throws EnvironmentError GIT_AUTH_KEY_INVALID at once when the key cannot be read or is not RSA.
//   - environment(signal) mints or reuses a token; rejects with GitHubAppError GITHUB_APP_REFUSED
//     (permanent) or GITHUB_APP_UNREACHABLE (retryable).
//   - token(signal): the installation token itself, for the GitHub API (commit statuses).
import type { GitAuth } from '../config/git-auth-schema.js';
import { credentialHelperEnvironment, type GitCredentials, givenPassword } from '../git/git-credentials.js';
import type { Logger } from '../log/create-logger.js';
import { signAppJwt } from './app-jwt.js';
import { installationTokenCache } from './installation-token-cache.js';
import { readAppKey } from './read-app-key.js';
import { requestInstallationToken } from './request-installation-token.js';

export type GitHubAppAuth = Extract<GitAuth, { kind: 'github-app' }>;

/** The user name GitHub takes beside an installation token. */
const INSTALLATION_TOKEN_USERNAME = 'x-access-token';

export interface GitHubAppCredentialsOptions {
  /** The HTTPS remote (`git.repo`) the token is handed to git for. */
  repo: string;
  log: Logger;
  /** The clock, in ms since the epoch: the JWT's times and the cache's renewal read it. */
  now?: () => number;
  /** The environment git's own configuration comes from (its GIT_CONFIG_COUNT is kept). */
  baseEnv?: NodeJS.ProcessEnv;
  /** Where a relative privateKeyFile starts: where docsync started, by default. */
  cwd?: string;
}

export interface GitHubAppCredentials extends GitCredentials {
  /** A current installation token, for GitHub's API. */
  token(signal?: AbortSignal): Promise<string>;
}

export function githubAppCredentials(
  auth: GitHubAppAuth,
  options: GitHubAppCredentialsOptions,
): GitHubAppCredentials {
  const key = readAppKey(auth.privateKey, options.cwd);
  const now = options.now ?? Date.now;
  const { log, repo } = options;
  const fields = { appId: auth.appId, installationId: auth.installationId };
  const cache = installationTokenCache(async () => {
    const minted = await requestInstallationToken(
      auth,
      signAppJwt(auth.appId, key, now()),
      new AbortController().signal,
    );
    const expiresAt = new Date(minted.expiresAtMs).toISOString();
    log.info({ ...fields, expiresAt }, 'github app token minted');
    // A token GitHub says has expired already is minted again on every call: the clock is wrong.
    if (minted.expiresAtMs <= now())
      log.warn({ ...fields, expiresAt }, "github app token expired when minted: check this machine's clock");
    return minted;
  }, now);
  return {
    source: `the GitHub App ${auth.appId}, installation ${auth.installationId} (git.auth.githubApp)`,
    setting: 'git.auth.githubApp',
    token: (signal) => cache.token(signal),
    refused(given) {
      const token = givenPassword(given);
      if (token === undefined) return;
      cache.forget(token);
      log.warn(fields, 'github app token refused by the remote: a new one is minted for the next command');
    },
    async environment(signal) {
      const token = await cache.token(signal);
      return credentialHelperEnvironment(
        repo,
        INSTALLATION_TOKEN_USERNAME,
        token,
        options.baseEnv ?? process.env,
      );
    },
  };
}
