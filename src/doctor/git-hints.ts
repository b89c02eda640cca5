// What doctor says to check when git failed against a mapping's remote: the variable or file of
// `git.auth` when the remote refused those credentials, else a hint chosen by the failure's code.
import { credentialsHint } from '../git/credentials-hint.js';
import type { GitError, GitErrorCode } from '../git/git-error.js';

const GIT_HINTS: Partial<Record<GitErrorCode, (repo: string, mapping: string) => string>> = {
  GIT_AUTH: (repo, mapping) =>
    `the remote refused git's credentials: check the credential helper, SSH key or token that git uses for ${repo} (${mapping})`,
  GIT_NOT_FOUND: (repo, mapping) =>
    `check ${repo} (${mapping}): the repository does not exist, or these credentials cannot see it`,
  GIT_NETWORK: (repo, mapping) => `check the host in ${repo} (${mapping}) and that this machine can reach it`,
  GIT_TIMEOUT: (repo, mapping) =>
    `the remote did not answer in time: check ${repo} (${mapping}) and the network`,
  GIT_UNAVAILABLE: () => 'install git, or put it on PATH',
};

/**
 * The hint for a git failure: the variable or file of `git.auth` when the remote refused its
 * credentials, else by the code. `key` names git.repo, `where` the mapping.
 */
export function gitProblemHint(error: GitError, key: string, where: string): string | undefined {
  return credentialsHint(error, ` of ${where}`) ?? GIT_HINTS[error.code]?.(key, where);
}
