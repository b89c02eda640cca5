// What an import leaves behind once it went through, or found the content unchanged: the mapping's
// state (what was imported, from where, its warnings), the revision's origin, the log line and the
// link check of the new revision.
import type { ContentWarning } from '../content/content-warning.js';
import type { Logger } from '../log/create-logger.js';
import type { ImportOutcome, MappingState } from '../state/mapping-state.js';
import { attachCommitToWorktreeImport } from './attach-commit-to-worktree-import.js';
import type { importIntoChangeRequest } from './import-into-change-request.js';
import type { ImportReport } from './import-report.js';
import type { ImportDeps, ImportRequest } from './import-request.js';
import { storedWarnings } from './import-warnings.js';
import { shaOf } from './request-sha.js';

/** The import went through: the mapping's state, the revision's origin, the log and the link check. */
export async function recordImport(
  deps: ImportDeps,
  request: ImportRequest,
  log: Logger,
  done: Awaited<ReturnType<typeof importIntoChangeRequest>> & {
    content: string;
    treeKey: string | undefined;
    warnings: ContentWarning[];
  },
): Promise<ImportReport> {
  const { mapping } = request;
  const { cr, imported, warnings } = done;
  const sha = shaOf(request);
  const changeRequest = {
    id: cr.id,
    number: cr.number,
    ...(cr.urls?.app === undefined ? {} : { url: cr.urls.app }),
  };
  const report: ImportReport = {
    result: 'imported',
    ...(sha === undefined ? {} : { sha }),
    changeRequest,
    revision: imported.revision,
    importedResources: imported.importedResources,
    totalResources: imported.totalResources,
    ...(warnings.length === 0 ? {} : { warnings }),
  };
  await deps.state.update(mapping.name, {
    ...(sha === undefined ? {} : { lastImportedSha: sha }),
    lastContent: done.content,
    lastTree: done.treeKey ?? null,
    contentFromWorktree: request.source === 'worktree' ? true : null,
    changeRequestId: cr.id,
    lastImport: {
      ...outcome(deps, request, 'imported'),
      changeRequest,
      revision: imported.revision,
      importedResources: imported.importedResources,
      totalResources: imported.totalResources,
      ...storedWarnings(warnings),
    },
    lastError: null,
  });
  await deps.state.recordRevisionOrigin(mapping.space, imported.revision, {
    kind: 'import',
    mapping: mapping.name,
    ...(sha === undefined ? {} : { sha }),
    changeRequest: cr.id,
  });
  log.info(
    { cr: cr.id, number: cr.number, revision: imported.revision, how: done.how, warnings: warnings.length },
    'content imported into the change request',
  );
  await deps.queueLinkCheck?.({ space: mapping.space, changeRequest: cr.id, revision: imported.revision });
  return report;
}

/** The same content as the last import: nothing is sent, and its warnings (the same) stay shown. */
export async function unchanged(
  deps: ImportDeps,
  request: ImportRequest,
  log: Logger,
  state: Pick<MappingState, 'lastImport' | 'contentFromWorktree' | 'changeRequestId'>,
  /** The git tree id of a commit found to hold the imported content, remembered for its next poll. */
  treeKey?: string,
): Promise<ImportReport> {
  log.info({ result: 'unchanged' }, 'content unchanged since the last import');
  const sha = request.source === 'git' ? request.sha : undefined;
  const previous = state.lastImport;
  let attached = false;
  if (sha !== undefined && state.contentFromWorktree === true && !deps.dryRun)
    attached =
      state.changeRequestId === undefined ||
      (await attachCommitToWorktreeImport(deps, request.mapping, state.changeRequestId, sha));
  if (!deps.dryRun)
    await deps.state.update(request.mapping.name, {
      ...(sha === undefined ? {} : { lastImportedSha: sha }),
      ...(treeKey === undefined ? {} : { lastTree: treeKey }),
      ...(attached ? { contentFromWorktree: null } : {}),
      lastImport: {
        ...outcome(deps, request, 'unchanged'),
        ...(previous?.warnings === undefined ? {} : { warnings: previous.warnings }),
        ...(previous?.warningCount === undefined ? {} : { warningCount: previous.warningCount }),
      },
    });
  return { result: 'unchanged', ...(sha === undefined ? {} : { sha }) };
}

function outcome(deps: ImportDeps, request: ImportRequest, result: ImportOutcome['result']): ImportOutcome {
  return {
    at: deps.now().toISOString(),
    result,
    source: request.source,
    ...(request.source === 'git' ? { sha: request.sha } : {}),
  };
}
