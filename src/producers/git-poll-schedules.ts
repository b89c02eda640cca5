// The schedulers of the git polls: one per repository and interval. The mappings of one repository
// share one look at it (one `git ls-remote` per tick, src/git/git-mirror.ts), so one job polls them
// all, one after the other: a job costs Redis round trips and CPU of its own, more than the look
// at an unchanged repository, and a fleet of 300 mappings in 100 repositories makes 100 jobs a
// tick, not 300. A repository with one mapping at an interval keeps the mapping's own scheduler
// (`poll-git/<mapping>`); several are `poll-git/repo.<name>.<hash>.<every>ms`, named after the
// repository (its last path segment, and a hash of its address that tells two of one name apart,
// never the address itself, which may hold a token). A mapping's name holds no '.' without an '@',
// so no key of one is a mapping's.
import { createHash } from 'node:crypto';
import type { PollGitPayload } from '../../jobs/poll-git/poll-git-kind.js';
import type { MappingConfig } from '../config/mapping-schema.js';
import type { WantedScheduler } from './sync-job-schedulers.js';

/** The schedulers the git polls of `mappings` want, in the configuration's order. */
export function gitPollSchedules(mappings: readonly MappingConfig[]): WantedScheduler<PollGitPayload>[] {
  const groups = new Map<string, MappingConfig[]>();
  for (const mapping of mappings) {
    const key = `${mapping.git.poll} ${mapping.git.repo}`;
    groups.set(key, [...(groups.get(key) ?? []), mapping]);
  }
  return [...groups.values()].map((group) => {
    const [first] = group as [MappingConfig, ...MappingConfig[]];
    const every = first.git.poll;
    const spreadKey = first.git.repo;
    if (group.length === 1)
      return { key: first.name, repeat: { every }, payload: { mapping: first.name }, spreadKey };
    return {
      key: repositoryKey(first.git.repo, every),
      repeat: { every },
      payload: { mappings: group.map((mapping) => mapping.name) },
      spreadKey,
    };
  });
}

/** The scheduler key of the git polls of a repository's mappings polled every `every` ms. */
export function repositoryKey(repo: string, every: number): string {
  const hash = createHash('sha256').update(repo).digest('hex').slice(0, 8);
  const name =
    lastSegment(repo)
      .replace(/\.git$/, '')
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .slice(0, 40) || 'repo';
  return `repo.${name}.${hash}.${every}ms`;
}

/**
 * The last segment of a repository's path, never of its host, user, password or query: `docs` of
 * `https://user:token@host/acme/docs.git?private_token=x`, of `git@host:acme/docs.git` and of
 * `/srv/git/docs/`; '' for an address without a path.
 */
function lastSegment(repo: string): string {
  const withoutQuery = repo.split(/[?#]/, 1)[0] ?? '';
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/]*/.exec(withoutQuery);
  let path = withoutQuery;
  if (scheme !== null) path = withoutQuery.slice(scheme[0].length);
  else if (/^[^/]*:/.test(withoutQuery)) path = withoutQuery.slice(withoutQuery.indexOf(':') + 1);
  return (
    path
      .split(/[/\\]/)
      .filter((part) => part !== '')
      .pop() ?? ''
  );
}
