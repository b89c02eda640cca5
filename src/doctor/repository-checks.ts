// The repository checks: `git ls-remote --heads` once per repository (mappings may share one), then
// for each mapping whether its branch is there. A failure shows git's whole error text, with any
// credentials taken out of it, and a hint chosen by what git said.
import type { Env } from '../config/interpolate-env.js';
import type { MappingConfig } from '../config/mapping-schema.js';
import { GitError, type GitErrorCode } from '../git/git-error.js';
import { gitEnvironment, runGit } from '../git/git-process.js';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';
import type { Attempt, CheckRunner } from './check-runner.js';
import type { NameSource } from './config-sources.js';
import { describeFailure, failureCode } from './describe-failure.js';
import { type Finding, failed, ok } from './doctor-finding.js';

export interface RepositoryCheckInput {
  mappings: readonly MappingConfig[];
  runner: CheckRunner;
  names: NameSource;
  /** Where git's credentials come from (credential helpers, GIT_ASKPASS, SSH_AUTH_SOCK). */
  env: Env;
}

/** Branches shown when the one asked for is missing. */
const SHOWN_BRANCHES = 10;

/** One finding per mapping, in the order of the mappings. */
export function checkRepositories(input: RepositoryCheckInput): Promise<Finding>[] {
  const heads = new Map<string, Promise<Attempt<Map<string, string>>>>();
  return input.mappings.map(async (mapping, index) => {
    let branches = heads.get(mapping.git.repo);
    if (branches === undefined) {
      branches = input.runner.attempt((signal) => listBranches(mapping.git.repo, input, signal));
      heads.set(mapping.git.repo, branches);
    }
    return repositoryFinding(mapping, index, await branches, input.names);
  });
}

/** The branches of `repo` and the commit at the tip of each. */
async function listBranches(repo: string, input: RepositoryCheckInput, signal: AbortSignal) {
  const { stdout } = await runGit(['ls-remote', '--heads', '--', repo], {
    env: gitEnvironment({ ...input.env }),
    timeoutMs: input.runner.timeoutMs,
    signal,
  });
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

function gitProblem(error: unknown, mapping: MappingConfig, index: number, names: NameSource) {
  const key = names(['mappings', index, 'git', 'repo']);
  const repo = redactUrlCredentials(mapping.git.repo);
  const where = `mapping ${mapping.name}`;
  if (error instanceof GitError) {
    const hint = GIT_HINTS[error.code]?.(key, where) ?? `run git ls-remote ${repo} yourself to see more`;
    return {
      code: error.code,
      message: `git ls-remote ${repo} failed (${error.exitCode === null ? 'no exit code' : `exit ${error.exitCode}`})`,
      hint,
      ...(error.stderr === '' ? {} : { details: error.stderr.split('\n') }),
    };
  }
  return {
    code: failureCode(error),
    message: `git ls-remote ${repo}: ${describeFailure(error)}`,
    hint: `check ${key} (${where}) and that this machine can reach it`,
  };
}
