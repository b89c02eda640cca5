// The repository checks: `git ls-remote --heads` once per repository (mappings may share one), with
// its `git.auth` credentials, then for each mapping whether its branch is there, and for a mapping
// that writes to git whether it may push (push-check.ts). A failure shows git's whole error text,
// with any credentials taken out of it, and a hint chosen by what git said: the variable or file of
// `git.auth` when the remote refused those.
import type { Env } from '../config/interpolate-env.js';
import type { MappingConfig } from '../config/mapping-schema.js';
import { DocsyncError } from '../errors/docsync-error.js';
import { GitError } from '../git/git-error.js';
import { gitEnvironment, runGit } from '../git/git-process.js';
import { reachRemote } from '../git/reach-remote.js';
import type { RepoCredentials } from '../git/repo-credentials.js';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';
import type { Attempt, CheckRunner } from './check-runner.js';
import type { NameSource } from './config-sources.js';
import { describeFailure, failureCode } from './describe-failure.js';
import { type Finding, failed, ok } from './doctor-finding.js';
import { gitProblemHint } from './git-hints.js';
import { checkPush, writesToGit } from './push-check.js';

export interface RepositoryCheckInput {
  mappings: readonly MappingConfig[];
  runner: CheckRunner;
  names: NameSource;
  /** Where git's credentials come from (credential helpers, GIT_ASKPASS, SSH_AUTH_SOCK). */
  env: Env;
  /** Each repository's `git.auth` credentials (lazyRepoCredentials: a bad key file throws). */
  credentials: RepoCredentials;
}

/** Branches shown when the one asked for is missing. */
const SHOWN_BRANCHES = 10;

/**
 * One finding per mapping, in the order of the mappings, each followed by its push finding when the
 * mapping writes to git.
 */
export function checkRepositories(input: RepositoryCheckInput): Promise<Finding>[] {
  const heads = new Map<string, Promise<Attempt<Map<string, string>>>>();
  const env = gitEnvironment({ ...input.env });
  return input.mappings.flatMap((mapping, index) => {
    let branches = heads.get(mapping.git.repo);
    if (branches === undefined) {
      branches = input.runner.attempt((signal) => listBranches(mapping.git.repo, input, signal));
      heads.set(mapping.git.repo, branches);
    }
    const listed = branches;
    const found = listed.then((attempt) => repositoryFinding(mapping, index, attempt, input.names));
    if (!writesToGit(mapping)) return [found];
    return [found, checkPush({ runner: input.runner, credentials: input.credentials, env }, mapping, listed)];
  });
}

/** The branches of `repo` and the commit at the tip of each. */
async function listBranches(repo: string, input: RepositoryCheckInput, signal: AbortSignal) {
  const options = { env: gitEnvironment({ ...input.env }), timeoutMs: input.runner.timeoutMs, signal };
  const { stdout } = await reachRemote(input.credentials(repo), options, (withCredentials) =>
    runGit(['ls-remote', '--heads', '--', repo], withCredentials),
  );
  const branches = new Map<string, string>();
  for (const line of stdout.toString('utf8').split('\n')) {
    const [sha, ref] = line.split('\t');
    if (sha !== undefined && ref?.startsWith('refs/heads/'))
      branches.set(ref.slice('refs/heads/'.length), sha);
  }
  return branches;
}

function repositoryFinding(
  mapping: MappingConfig,
  index: number,
  branches: Attempt<Map<string, string>>,
  names: NameSource,
): Finding {
  const repo = redactUrlCredentials(mapping.git.repo);
  const { branch } = mapping.git;
  if (!branches.ok)
    return failed('repository', mapping.name, gitProblem(branches.error, mapping, index, names));
  const sha = branches.value.get(branch);
  if (sha !== undefined)
    return ok('repository', mapping.name, `${repo}: branch ${branch} at ${sha.slice(0, 12)}`);
  const others = [...branches.value.keys()].sort();
  const listed =
    others.length === 0
      ? 'it has no branches yet'
      : `its branches: ${others.slice(0, SHOWN_BRANCHES).join(', ')}${others.length > SHOWN_BRANCHES ? `, and ${others.length - SHOWN_BRANCHES} more` : ''}`;
  return failed('repository', mapping.name, {
    code: 'BRANCH_NOT_FOUND',
    message: `${repo} has no branch ${branch} (${listed})`,
    hint: `check ${names(['mappings', index, 'git', 'branch'])} of mapping ${mapping.name}, or push the branch`,
  });
}

function gitProblem(error: unknown, mapping: MappingConfig, index: number, names: NameSource) {
  const key = names(['mappings', index, 'git', 'repo']);
  const repo = redactUrlCredentials(mapping.git.repo);
  const where = `mapping ${mapping.name}`;
  if (error instanceof GitError) {
    const hint = gitProblemHint(error, key, where) ?? `run git ls-remote ${repo} yourself to see more`;
    return {
      code: error.code,
      message: `git ls-remote ${repo} failed (${error.exitCode === null ? 'no exit code' : `exit ${error.exitCode}`})`,
      hint,
      ...(error.stderr === '' ? {} : { details: error.stderr.split('\n') }),
    };
  }
  if (error instanceof DocsyncError && error.code === 'GIT_AUTH_KEY_INVALID')
    return {
      code: error.code,
      message: error.message,
      hint: `fix the file git.auth of ${where} names (the message says what is wrong with it), then run docsync doctor again`,
    };
  return {
    code: failureCode(error),
    message: `git ls-remote ${repo}: ${describeFailure(error)}`,
    hint: `check ${key} (${where}) and that this machine can reach it`,
  };
}
