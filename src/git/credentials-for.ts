// The credentials of a remote from its `git.auth`, for each of the three kinds; none without it
// (git's own environment then: the operator's credential helper, GIT_ASKPASS, an SSH agent). Key
// files are read here, so that calling this when the daemon starts checks them.
import type { GitAuth } from '../config/git-auth-schema.js';
import { githubAppCredentials } from '../github-app/github-app-credentials.js';
import type { Logger } from '../log/create-logger.js';
import type { GitCredentials } from './git-credentials.js';
import { sshCredentials } from './ssh-credentials.js';
import { tokenCredentials } from './token-credentials.js';

export interface CredentialsOptions {
  log: Logger;
  /** The environment git runs in, whose own GIT_CONFIG_COUNT entries are kept; the process's by default. */
  env?: NodeJS.ProcessEnv;
  /** Where relative key paths start: where docsync started. */
  cwd?: string;
}

export function credentialsFor(
  auth: GitAuth | undefined,
  repo: string,
  options: CredentialsOptions,
): GitCredentials | undefined {
  switch (auth?.kind) {
    case undefined:
      return undefined;
    case 'token':
      return tokenCredentials(auth, repo, options.env);
    case 'ssh':
      return sshCredentials(auth, options.cwd);
    case 'github-app':
      return githubAppCredentials(auth, {
        repo,
        log: options.log,
        ...(options.env === undefined ? {} : { baseEnv: options.env }),
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      });
  }
}
