// Whether a local working copy's checked-out commit holds a given commit (docsync's last export):
// a working copy that does not would, once imported, undo in the service what that export brought
// to git. Undefined when it cannot tell: the folder is not a git working copy.
import { gitEnvironment, runGit } from './git-process.js';

const TIMEOUT_MS = 10_000;

export async function workingCopyHolds(
  path: string,
  commit: string,
  signal?: AbortSignal,
): Promise<boolean | undefined> {
  const options = { env: gitEnvironment(process.env), timeoutMs: TIMEOUT_MS, signal };
  const head = await runGit(['-C', path, 'rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], {
    ...options,
    okExitCodes: [1, 128],
  });
  if (head.exitCode !== 0) return undefined;
  // 1: not an ancestor; 128: the commit is not in this clone at all (not fetched yet).
  const found = await runGit(['-C', path, 'merge-base', '--is-ancestor', commit, 'HEAD'], {
    ...options,
    okExitCodes: [1, 128],
  });
  return found.exitCode === 0;
}
