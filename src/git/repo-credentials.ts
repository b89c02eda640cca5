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

/** Each repository's credentials; a repository without `git.auth` has no entry. */
export type RepoCredentials = ReadonlyMap<string, GitCredentials>;

/**
 * A key file that cannot be used (GIT_AUTH_KEY_INVALID, an SSH or a GitHub App key) is an
 * EnvironmentError whose message starts with the mapping it belongs to.
 */
export function repoCredentials(
  config: { mappings: readonly WithAuth[]; branchMappings?: readonly WithAuth[] },
  options: CredentialsOptions,
): RepoCredentials {
  const built = new Map<string, GitCredentials>();
  const seen = new Set<string>();
  for (const mapping of [...config.mappings, ...(config.branchMappings ?? [])]) {
    const { repo, auth } = mapping.git;
    if (seen.has(repo)) continue;
    seen.add(repo);
    const credentials = withMappingNamed(mapping.name, () => credentialsFor(auth, repo, options));
    if (credentials !== undefined) built.set(repo, credentials);
  }
  return built;
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
