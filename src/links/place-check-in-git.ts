// The daemon's link check placed in git: the broken links of a change request's revision that
// docsync imported get the file and line they have in the imported commit, read from the mapping's
// mirror. A revision docsync did not make from one commit (a person's edit, an update that brought
// in the main content) keeps the file of each page and no line: its lines may not be git's.

import type { Config } from '../config/config-schema.js';
import { mappingByName } from '../config/mapping-by-name.js';
import type { GitMirror } from '../git/git-mirror.js';
import type { Logger } from '../log/create-logger.js';
import type { MappingStateStore } from '../state/mapping-state.js';
import type { BrokenLink } from './broken-link.js';
import { commitFiles, locateBrokenLinks } from './locate-broken-links.js';
import { repositoryPath } from './place-broken-links.js';

export interface PlaceCheckDeps {
  config: Pick<Config, 'mappings'>;
  mappings: Pick<MappingStateStore, 'revisionOrigin'>;
  mirrorFor: (repo: string) => GitMirror;
  log: Logger;
  signal: AbortSignal;
}

export async function placeCheckInGit(
  deps: PlaceCheckDeps,
  space: string,
  check: { revision: string; broken: readonly BrokenLink[] },
): Promise<BrokenLink[]> {
  if (!check.broken.some((link) => link.sourcePath !== undefined)) return [...check.broken];
  const origin = await deps.mappings.revisionOrigin(space, check.revision);
  const mapping =
    (origin === undefined ? undefined : mappingByName(deps.config.mappings, origin.mapping)) ??
    // No origin: the space's one mapping from git still names the folder the files are in.
    onlyMapping(deps.config.mappings.filter((candidate) => candidate.space === space));
  if (mapping === undefined) return [...check.broken];
  const folder = mapping.git.dir;
  const withFiles = () =>
    check.broken.map((link) => {
      const file = link.sourcePath === undefined ? undefined : repositoryPath(folder, link.sourcePath);
      return file === undefined ? link : { ...link, file };
    });
  if (origin?.kind !== 'import' || origin.sha === undefined) return withFiles();
  try {
    const files = commitFiles(deps.mirrorFor(mapping.git.repo), origin.sha, folder, deps.signal);
    return await locateBrokenLinks(check.broken, files);
  } catch (error) {
    // The mirror may have lost the commit (a force-push and a prune): the check is still worth
    // recording, with files and no lines.
    if (deps.signal.aborted) throw error;
    deps.log.warn({ err: error, sha: origin.sha }, 'broken links not placed in git');
    return withFiles();
  }
}

function onlyMapping<T extends { direction: string }>(mappings: readonly T[]): T | undefined {
  const fromGit = mappings.filter((mapping) => mapping.direction !== 'space-to-git');
  return fromGit.length === 1 ? fromGit[0] : undefined;
}
