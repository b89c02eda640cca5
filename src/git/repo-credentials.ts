// The credentials of every repository the configuration names, built once when the daemon (or
// doctor, or `docsync once`) starts and shared by everything that reaches the repository: its
// mirror, the branch listing, doctor's checks. The configuration gives one `git.auth` per repository
// (checkSharedRepoAuth), so the first mapping of a repository speaks for all of them.
import type { GitAuth } from '../config/git-auth-schema.js';
import { DocsyncError } from '../errors/docsync-error.js';
import { EnvironmentError } from '../errors/environment-error.js';
import { type CredentialsOptions, credentialsFor } from './credentials-for.js';
import type { GitCredentials } from './git-credentials.js';

interface WithAuth {
  name: string;
  git: { repo: string; auth?: GitAuth | undefined };
}

/** Each repository's credentials; undefined for a repository without `git.auth`. */
export type RepoCredentials = (repo: string) => GitCredentials | undefined;

type Config = { mappings: readonly WithAuth[]; branchMappings?: readonly WithAuth[] };

/**
 * Built now, for every repository: a key file that cannot be used (GIT_AUTH_KEY_INVALID, an SSH or a
 * GitHub App key) is an EnvironmentError whose message starts with the mapping it belongs to.
 */
export function repoCredentials(config: Config, options: CredentialsOptions): RepoCredentials {
  const built = new Map<string, GitCredentials | undefined>();
  for (const [repo, mapping] of firstMappings(config))
    built.set(
      repo,
      withMappingNamed(mapping.name, () => credentialsFor(mapping.git.auth, repo, options)),
    );
  return (repo) => built.get(repo);
}

/**
 * Built when a repository's are first asked for, the failure kept and thrown again: for doctor,
 * where a key that cannot be used is a finding of its repository, not the end of the run.
 */
export function lazyRepoCredentials(config: Config, options: CredentialsOptions): RepoCredentials {
  const mappings = firstMappings(config);
  const built = new Map<string, { value: GitCredentials | undefined } | { error: unknown }>();
  return (repo) => {
    let entry = built.get(repo);
    if (entry === undefined) {
      const mapping = mappings.get(repo);
      try {
        entry = {
          value:
            mapping === undefined
              ? undefined
              : withMappingNamed(mapping.name, () => credentialsFor(mapping.git.auth, repo, options)),
        };
      } catch (error) {
        entry = { error };
      }
      built.set(repo, entry);
    }
    if ('error' in entry) throw entry.error;
    return entry.value;
  };
}

/** The first mapping of each repository, which speaks for all of them. */
function firstMappings(config: Config): Map<string, WithAuth> {
  const first = new Map<string, WithAuth>();
  for (const mapping of [...config.mappings, ...(config.branchMappings ?? [])])
    if (!first.has(mapping.git.repo)) first.set(mapping.git.repo, mapping);
  return first;
}

function withMappingNamed<T>(name: string, build: () => T): T {
  try {
    return build();
  } catch (error) {
    // A key that cannot be used stops the start as a bad environment does (exit 2, one line).
    if (error instanceof DocsyncError && error.code === 'GIT_AUTH_KEY_INVALID')
      throw new EnvironmentError(error.code, `mapping ${name}: ${error.message}`, { cause: error });
    throw error;
  }
}
