// The order of a two-way mapping's imports and exports: an import never takes out of the service
// edits that git does not hold yet. It fetches what another process fetched or pushed, imports the
// export's commit when one is on top of the commit asked for, and waits for an export still to run.
import { workingCopyHolds } from '../git/working-copy-holds.js';
import type { Logger } from '../log/create-logger.js';
import type { MappingState } from '../state/mapping-state.js';
import type { ImportReport } from './import-report.js';
import type { ImportDeps, ImportRequest } from './import-request.js';
import { unexportedRevision } from './unexported-revision.js';

/**
 * The git poll that queued the import, or the export made on top of its commit, may have run in
 * another docsync process on the same Redis: this process's mirror lacks what that one fetched
 * or pushed until it fetches too. Without it the import would fail for good, or import the commit
 * below the export and take the service's edits out again.
 */
export async function fetchMissingCommits(
  deps: ImportDeps,
  asked: ImportRequest,
  state: MappingState,
): Promise<void> {
  if (asked.source !== 'git') return;
  const mirror = deps.mirrorFor(asked.mapping.git.repo);
  const needed = [asked.sha, exportedCommit(state)].filter((sha) => sha !== undefined);
  // A process that never fetched this repository has no mirror yet: git refuses to look.
  for (const sha of needed)
    if (!(await mirror.hasCommit(sha, deps.signal).catch(() => false))) {
      await mirror.fetch(deps.signal);
      break;
    }
}

/**
 * Importing git's folder now would undo, in the change request and then in the space, the
 * service's edits git does not hold yet. The export commits them first; the git poll after it
 * imports the branch with both sides' changes. Undefined when the import goes ahead.
 */
export async function deferredImport(
  deps: ImportDeps,
  request: ImportRequest,
  state: MappingState,
  log: Logger,
): Promise<ImportReport | undefined> {
  const { mapping } = request;
  if (deps.awaitExports !== true || mapping.direction !== 'both') return undefined;
  const pending = await unexportedRevision(deps, mapping, state);
  if (pending !== undefined) {
    log.info({ revision: pending }, 'the space has edits not yet in git: import deferred until their export');
    return { result: 'deferred', waitingFor: 'export' };
  }
  // A working copy is the person's own checkout: until they pull, it lacks what docsync exported,
  // and importing it would take those service edits out again.
  const exported = exportedCommit(state);
  if (
    request.source === 'worktree' &&
    exported !== undefined &&
    (await workingCopyHolds(request.path, exported, deps.signal)) === false
  ) {
    log.warn(
      { exported, path: request.path },
      'the working copy lacks the service edits docsync exported: pull the branch, then save again; import deferred',
    );
    return { result: 'deferred', waitingFor: 'pull' };
  }
  return undefined;
}

/**
 * Two-way: a commit docsync's last export was made on top of (the import waited for it, or was queued
 * before it ran) lacks the service's edits that export brought to git; imported as it is, it would
 * take them out of the service again. The export's commit holds both: it is imported instead,
 * named after the commit asked for.
 */
export async function withExportsOnTop(
  deps: ImportDeps,
  request: ImportRequest,
  state: MappingState,
  log: Logger,
): Promise<ImportRequest> {
  if (request.source !== 'git' || request.mapping.direction !== 'both') return request;
  const exported = exportedCommit(state);
  if (exported === undefined || exported === request.sha) return request;
  try {
    const mirror = deps.mirrorFor(request.mapping.git.repo);
    if (!(await mirror.isAncestor(request.sha, exported, deps.signal))) return request;
  } catch {
    // An export commit the mirror lacks (its data folder made anew): the commit asked for.
    return request;
  }
  log.info({ exported }, "docsync's export is on top of this commit: importing the branch that holds both");
  return { ...request, sha: exported };
}

/** The commit on the branch that brought the space's last exported edits to git, if any. */
export function exportedCommit(state: MappingState): string | undefined {
  const last = state.lastExport;
  if (last?.result === 'committed') return last.sha;
  if (last?.result === 'conflict') return last.committed;
  return undefined;
}
