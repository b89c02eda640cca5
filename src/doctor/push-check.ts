// Whether docsync may push to a mapping's branch, for the mappings that write to git (space-to-git,
// both): `git push --dry-run` of the branch's tip onto itself. Nothing is sent, but git must open
// the remote's receive-pack, where a host refuses credentials that may only read. The push runs
// from an empty repository of its own: a full commit id needs no object to name it, and a ref that
// already points there needs no pack.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MappingConfig } from '../config/mapping-schema.js';
import { GitError } from '../git/git-error.js';
import { type GitCommandOptions, runGit } from '../git/git-process.js';
import { reachRemote } from '../git/reach-remote.js';
import type { RepoCredentials } from '../git/repo-credentials.js';
import { checkBranch, checkSha } from '../git/revision-names.js';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';
import type { Attempt, CheckRunner } from './check-runner.js';
import { describeFailure, failureCode } from './describe-failure.js';
import { type Finding, failed, ok, skipped } from './doctor-finding.js';
import { gitProblemHint } from './git-hints.js';

export interface PushCheckInput {
  runner: CheckRunner;
  credentials: RepoCredentials;
  /** git's environment (gitEnvironment of the operator's). */
  env: NodeJS.ProcessEnv;
}

/** Whether the mapping writes to its branch, and so needs the right to push. */
export function writesToGit(mapping: MappingConfig): boolean {
  return mapping.direction !== 'git-to-space';
}

export async function checkPush(
  input: PushCheckInput,
  mapping: MappingConfig,
  branches: Promise<Attempt<Map<string, string>>>,
): Promise<Finding> {
  const listed = await branches;
  if (!listed.ok) return skipped('repository-push', mapping.name, 'the repository check failed');
  const sha = listed.value.get(mapping.git.branch);
  if (sha === undefined) return skipped('repository-push', mapping.name, 'the branch does not exist');
  const { repo, branch } = mapping.git;
  const pushed = await input.runner.attempt((signal) =>
    dryRunPush(repo, `${checkSha(sha)}:refs/heads/${checkBranch(branch)}`, input, signal),
  );
  const shown = redactUrlCredentials(repo);
  if (pushed.ok) return ok('repository-push', mapping.name, `${shown}: may push to ${branch}`);
  const { error } = pushed;
  const where = `mapping ${mapping.name}`;
  return failed('repository-push', mapping.name, {
    code: failureCode(error),
    message: `git push --dry-run to ${branch} of ${shown}: ${error instanceof GitError ? `refused (${error.code})` : describeFailure(error)}`,
    hint:
      (error instanceof GitError ? gitProblemHint(error, `git.repo of ${where}`, where) : undefined) ??
      `check that the credentials of ${where} may push to ${branch}`,
    ...(error instanceof GitError && error.stderr !== '' ? { details: error.stderr.split('\n') } : {}),
  });
}

async function dryRunPush(repo: string, refspec: string, input: PushCheckInput, signal: AbortSignal) {
  const empty = await mkdtemp(join(tmpdir(), 'docsync-doctor-push-'));
  const options: GitCommandOptions = { env: input.env, timeoutMs: input.runner.timeoutMs, signal };
  try {
    await runGit(['init', '--bare', '--quiet', '--template=', empty], options);
    await reachRemote(input.credentials(repo), options, (withCredentials) =>
      runGit(['--git-dir', empty, 'push', '--dry-run', '--porcelain', '--', repo, refspec], withCredentials),
    );
  } finally {
    await rm(empty, { recursive: true, force: true });
  }
}
