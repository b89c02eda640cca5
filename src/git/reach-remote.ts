// Every git command that reaches a remote runs through here: with the remote's credentials added to
// its environment (and to no other command's), and a failure that says where they came from, so
// that a refusal's hint names the variable or file to fix (src/git/credentials-hint.ts).
import type { GitCredentials } from './git-credentials.js';
import { GitError } from './git-error.js';
import type { GitCommandOptions } from './git-process.js';

export async function reachRemote<T>(
  credentials: GitCredentials | undefined,
  options: GitCommandOptions,
  command: (options: GitCommandOptions) => Promise<T>,
): Promise<T> {
  if (credentials === undefined) return command(options);
  const added = await credentials.environment(options.signal);
  try {
    return await command({ ...options, env: { ...options.env, ...added } });
  } catch (error) {
    if (error instanceof GitError) {
      error.credentials = { source: credentials.source, setting: credentials.setting };
      if (error.code === 'GIT_AUTH') credentials.refused?.(added);
    }
    throw error;
  }
}
