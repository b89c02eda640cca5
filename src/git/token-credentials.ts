// `git.auth: { tokenEnv, username }`: a token read from the environment when the configuration was
// read, handed to git by the credential helper of git-credentials.ts, so that it is in no argument
// list, URL or file, and only the remote's host is ever offered it.
import type { GitAuth } from '../config/git-auth-schema.js';
import { credentialHelperEnvironment, type GitCredentials } from './git-credentials.js';

export type TokenAuth = Extract<GitAuth, { kind: 'token' }>;

/**
 * The credentials of HTTPS `repo` from a token. `env` is the environment git runs in (the process's
 * by default): the helper's configuration is appended after any GIT_CONFIG_COUNT entries of its own.
 */
export function tokenCredentials(
  auth: TokenAuth,
  repo: string,
  env: NodeJS.ProcessEnv = process.env,
): GitCredentials {
  const variables = credentialHelperEnvironment(repo, auth.username, auth.token, env);
  return {
    environment: () => Promise.resolve(variables),
    source: `the token in ${auth.tokenEnv} (git.auth.tokenEnv)`,
    setting: 'git.auth.tokenEnv',
  };
}
