// `git push <remote> <sha>:<ref>` through simple-git: never forced, in docsync's git environment,
// with its time limit and abort signal. Failures become docsync GitErrors, classified by git's
// message and with credentials removed, like every other git failure.
import { simpleGit } from 'simple-git';
import { classifyGitStderr, GitError } from './git-error.js';
import type { GitCommandOptions } from './git-process.js';

export async function pushCommit(
  gitDir: string,
  remote: string,
  refspec: string,
  options: GitCommandOptions,
): Promise<void> {
  const env = pushEnvironment(options.env);
  const git = simpleGit({
    baseDir: gitDir,
    timeout: { block: options.timeoutMs },
    ...(options.signal === undefined ? {} : { abort: options.signal }),
    // simple-git refuses `GIT_*` variables, and those that can run programs, unless allowed. The
    // environment is the operator's, the one every other git command of docsync runs in, and it is
    // how credentials reach git (GIT_ASKPASS, GIT_SSH_COMMAND, GIT_CONFIG_COUNT with extra headers,
    // GIT_SSL_CAINFO); the refspec and the remote, the parts that vary, are checked by the caller.
    // `git.auth` adds its own credential helper (git-credentials.ts) and GIT_SSH_COMMAND.
    allowEnvironment: Object.keys(env),
    unsafe: {
      allowUnsafeCredentialHelper: true,
      allowUnsafeAskPass: true,
      allowUnsafeSshCommand: true,
      allowUnsafeConfigPaths: true,
      allowUnsafeConfigEnvCount: true,
      allowUnsafeGitProxy: true,
    },
  }).env(env);
  try {
    await git.push(remote, refspec);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const aborted = options.signal?.aborted === true;
    throw new GitError({
      code: aborted ? 'GIT_ABORTED' : classifyGitStderr(message),
      args: ['push', remote, refspec],
      reason: aborted ? 'aborted' : 'failed',
      stderr: message,
      exitCode: null,
    });
  }
}

/** Editors and pagers play no part in a push: they are left out rather than allowed. */
const UNUSED_BY_PUSH = [
  'editor',
  'visual',
  'git_editor',
  'git_sequence_editor',
  'pager',
  'git_pager',
  'git_external_diff',
];

function pushEnvironment(env: NodeJS.ProcessEnv | undefined): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env ?? process.env)) {
    if (!UNUSED_BY_PUSH.includes(name.toLowerCase())) kept[name] = value;
  }
  return kept;
}
