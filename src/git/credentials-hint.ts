// What to fix when a remote turned down the credentials of `git.auth`: the variable or file they
// came from, by name (GitError.credentials), never their value. Shared by the hints of /status
// (src/state/failure-hint.ts) and of `docsync doctor`.
import type { GitError } from './git-error.js';

/** What ssh says when the remote's host key is not one of the known hosts file. */
const HOST_KEY_REFUSED =
  /Host key verification failed|REMOTE HOST IDENTIFICATION HAS CHANGED|host key is known|key sent by the remote host is/i;

/**
 * The hint for a failure of a command run with `git.auth`'s credentials, or undefined when it ran
 * without them or failed for another reason. `of` names the mapping: ` of mapping docs`.
 */
export function credentialsHint(error: GitError, of: string): string | undefined {
  const origin = error.credentials;
  if (origin === undefined) return undefined;
  if (error.code === 'GIT_AUTH' && HOST_KEY_REFUSED.test(error.stderr))
    return `the remote's host key is not in git.auth.knownHostsFile${of}: put the host's current key there (ssh-keyscan), after checking it against the fingerprints the host publishes`;
  if (error.code === 'GIT_AUTH')
    return `the remote refused ${origin.source}${of}: check it is valid, not expired, and may read the repository (and push to it, for space-to-git)`;
  if (error.code === 'GIT_NOT_FOUND' && /Repository not found|returned error: 404/i.test(error.stderr))
    return `check git.repo${of}: the repository does not exist, or ${origin.source} may not see it`;
  return undefined;
}
