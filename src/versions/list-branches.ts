// The branches a repository holds, read from docsync's mirror of it once fetched (a fetch prunes
// deleted branches, so a branch gone from the remote is gone here).
import { DEFAULT_GIT_TIMEOUT_MS, type GitMirror } from '../git/git-mirror.js';
import { gitEnvironment, runGit } from '../git/git-process.js';

export async function listBranches(mirror: GitMirror, signal?: AbortSignal): Promise<string[]> {
  await mirror.fetch(signal);
  const { stdout } = await runGit(
    ['--git-dir', mirror.dir, 'for-each-ref', '--format=%(refname:strip=2)', 'refs/heads'],
    // The environment git needs to start (PATH), as the mirror's own commands have it.
    { env: gitEnvironment(process.env), timeoutMs: DEFAULT_GIT_TIMEOUT_MS, signal },
  );
  return stdout
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '');
}
