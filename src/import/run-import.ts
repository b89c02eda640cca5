// The import of a mapping's folder into the change request docsync keeps for it: bundle the
// folder (from git objects at a commit, or a local working copy), skip it when the content is what
// was imported last, serve the bundle at a signed address, find or make the change request, and ask
// the service to import it. The daemon's job and `docsync once` both run this.
import { join } from 'node:path';
import { bundleGitFolder } from '../content/bundle-git-folder.js';
import { bundleWorkingFolder } from '../content/bundle-working-folder.js';
import { ContentError } from '../content/content-error.js';
import type { ContentWarning } from '../content/content-warning.js';
import type { WrittenBundle } from '../content/write-bundle.js';
import { workingCopyHolds } from '../git/working-copy-holds.js';
import type { Logger } from '../log/create-logger.js';
import type { ContentPreview } from '../preview/content-preview.js';
import { previewImport } from '../preview/preview-import.js';
import { LOGGED_PATHS, previewLogFields } from '../preview/preview-log-fields.js';
import type { ImportOutcome, MappingState } from '../state/mapping-state.js';
import { attachCommitToWorktreeImport } from './attach-commit-to-worktree-import.js';
import { renderSubject, subjectMarker } from './change-request-subject.js';
import { contentKey } from './content-key.js';
import { importIntoChangeRequest } from './import-into-change-request.js';
import type { ImportDeps, ImportRequest } from './import-request.js';
import { logImportWarnings, MAX_LOGGED_WARNINGS, storedWarnings } from './import-warnings.js';
import { unexportedRevision } from './unexported-revision.js';

export type { ImportDeps, ImportRequest } from './import-request.js';

export interface ImportReport {
  result: 'imported' | 'unchanged' | 'superseded' | 'paused' | 'deferred' | 'dry-run';
  /** A deferred import's cause: an export still to run, or a working copy to pull first. */
  waitingFor?: 'export' | 'pull';
  sha?: string;
  changeRequest?: { id: string; number: number; url?: string };
  revision?: string;
  importedResources?: number;
  totalResources?: number;
  /** What the import read past in the folder (see ContentWarning); absent when there was nothing. */
  warnings?: ContentWarning[];
  /** A dry run's pages added, changed and removed, against the change request or the live content. */
  preview?: ContentPreview;
}

/**
 * Warnings never stop an import: a folder with a bad SUMMARY.md line, unlisted pages or files left
 * out is imported as the service would read it, and the warnings go to the log (one line each, up to
 * MAX_LOGGED_WARNINGS, at deps.warningLogLevel), the report, and the state (the first
 * MAX_STORED_WARNINGS and the count).
 */
export async function runImport(deps: ImportDeps, asked: ImportRequest): Promise<ImportReport> {
  const { mapping } = asked;
  const log = deps.log.child({
    mapping: mapping.name,
    space: mapping.space,
    ...(asked.source === 'git' ? { sha: asked.sha } : {}),
  });
  const state = await deps.state.get(mapping.name);
  await fetchMissingCommits(deps, asked, state);
  const request = await withExportsOnTop(deps, asked, state, log);
  if (state.paused !== undefined) {
    log.warn({ reason: state.paused.reason }, 'mapping paused, import skipped');
    return { result: 'paused' };
  }
  const deferred = await deferredImport(deps, request, state, log);
  if (deferred !== undefined) return deferred;
  const looked = request.source === 'git' ? await lookAtCommit(deps, request, state, log) : {};
  if (looked.report !== undefined) return looked.report;

  const { id: artifactId, path: bundlePath } = deps.artifacts.reserve();
  try {
    return await importBundle(deps, request, state, log, { artifactId, bundlePath, tree: looked.tree });
  } finally {
    await deps.artifacts.remove(artifactId);
  }
}

/**
 * The git poll that queued the import, or the export made on top of its commit, may have run in
 * another docsync process on the same Redis: this process's mirror lacks what that one fetched
 * or pushed until it fetches too. Without it the import would fail for good, or import the commit
 * below the export and take the service's edits out again.
 */
async function fetchMissingCommits(
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
async function deferredImport(
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
 * A git import's commit, looked at before anything is bundled: a report when it is superseded or
 * its folder's tree is the one imported last, else the tree id (looked up once: the bundle takes it
 * rather than starting git again for it).
 */
async function lookAtCommit(
  deps: ImportDeps,
  request: Extract<ImportRequest, { source: 'git' }>,
  state: MappingState,
  log: Logger,
): Promise<{ report?: ImportReport; tree?: string }> {
  const { mapping } = request;
  const mirror = deps.mirrorFor(mapping.git.repo);
  // An import of an older commit that waited (a retry, a busy space) must not replace a newer one.
  const last = state.lastImportedSha;
  if (
    last !== undefined &&
    last !== request.sha &&
    (await mirror.isAncestor(request.sha, last, deps.signal))
  ) {
    log.info({ result: 'superseded', lastImportedSha: last }, 'a newer commit was imported already');
    return { report: { result: 'superseded', sha: request.sha } };
  }
  // A git folder's tree id tells whether the content changed before anything is bundled.
  const tree = await mirror.treeHash(request.sha, mapping.git.dir, deps.signal);
  if (tree === undefined)
    throw new ContentError(
      'CONTENT_INVALID',
      `folder ${mapping.git.dir} does not exist at commit ${request.sha}`,
      { path: mapping.git.dir },
    );
  const treeKey = contentKey(tree, mapping.import);
  // lastContent held tree ids before content hashes: such state still skips the same tree.
  if (treeKey === state.lastTree || treeKey === state.lastContent)
    return { report: await unchanged(deps, request, log, state, treeKey) };
  return { tree };
}

/** Bundles the request's folder into the reserved artifact, then previews or imports it. */
async function importBundle(
  deps: ImportDeps,
  request: ImportRequest,
  state: MappingState,
  log: Logger,
  artifact: { artifactId: string; bundlePath: string; tree: string | undefined },
): Promise<ImportReport> {
  const { mapping } = request;
  const bundled = await bundleFolder(deps, request, artifact.bundlePath, artifact.tree);
  // One hash for a commit and a working copy: a save imported from the copy is not imported
  // again when its commit arrives (a new revision would drop the change request's approvals).
  const content = contentKey(`content:${bundled.contentHash}`, mapping.import);
  const treeKey = bundled.treeHash === undefined ? undefined : contentKey(bundled.treeHash, mapping.import);
  if (content === state.lastContent) return await unchanged(deps, request, log, state, treeKey);
  logImportWarnings(log, bundled.warnings, MAX_LOGGED_WARNINGS, deps.warningLogLevel);
  const values = subjectValues(request);
  const marker = subjectMarker(mapping.name, mapping.git.branch);
  const subject = renderSubject(mapping.changeRequest.subject, values, marker);
  if (deps.dryRun)
    return await previewDryRun(deps, request, state, log, { bundled, marker, subject, ...artifact });
  const imported = await importIntoChangeRequest(deps, request, state, log, {
    artifactId: artifact.artifactId,
    marker,
    subject,
    named: renderSubject(mapping.changeRequest.subject, values, marker, shaOf(request)),
  });
  return await recordImport(deps, request, log, {
    ...imported,
    content,
    treeKey,
    warnings: bundled.warnings,
  });
}

function shaOf(request: ImportRequest): string | undefined {
  return request.source === 'git' ? request.sha : undefined;
}

/** A commit's folder from git objects, or a working copy's folder from the disk. */
async function bundleFolder(
  deps: ImportDeps,
  request: ImportRequest,
  bundlePath: string,
  tree: string | undefined,
): Promise<WrittenBundle & { treeHash?: string }> {
  const { mapping } = request;
  const options = {
    ...mapping.import.limits,
    skipFilesOver: mapping.import.skipFilesOver,
    unlisted: mapping.import.unlisted,
    signal: deps.signal,
  };
  return request.source === 'git'
    ? await bundleGitFolder(deps.mirrorFor(mapping.git.repo), request.sha, mapping.git.dir, bundlePath, {
        ...options,
        treeHash: tree,
      })
    : await bundleWorkingFolder(join(request.path, mapping.git.dir), bundlePath, options);
}

/** The values the change request's subject template names, from the commit or the working copy. */
function subjectValues(request: ImportRequest) {
  const branch = request.mapping.git.branch;
  return request.source === 'git'
    ? {
        message: request.commit.subject,
        shortSha: request.commit.sha.slice(0, 7),
        sha: request.commit.sha,
        branch,
        author: request.commit.authorName,
      }
    : { message: 'working copy', shortSha: 'worktree', sha: 'worktree', branch, author: 'local' };
}

/** A dry run: the pages the import would add, change and remove, logged and reported. */
async function previewDryRun(
  deps: ImportDeps,
  request: ImportRequest,
  state: MappingState,
  log: Logger,
  planned: { bundled: WrittenBundle; bundlePath: string; marker: string; subject: string },
): Promise<ImportReport> {
  const { mapping } = request;
  const { bundled, subject } = planned;
  const preview = await previewImport({
    api: deps.api,
    space: mapping.space,
    knownChangeRequest: state.changeRequestId,
    marker: planned.marker,
    bundle: planned.bundlePath,
    limits: mapping.import.limits,
    listed: deps.previewPages ?? LOGGED_PATHS,
    signal: deps.signal,
  });
  log.info(
    {
      subject,
      files: bundled.files,
      bytes: bundled.bytes,
      warnings: bundled.warnings.length,
      ...previewLogFields(preview),
    },
    'dry run: would import into the change request',
  );
  const sha = shaOf(request);
  return {
    result: 'dry-run',
    ...(sha === undefined ? {} : { sha }),
    ...(bundled.warnings.length === 0 ? {} : { warnings: bundled.warnings }),
    preview,
  };
}

/** The import went through: the mapping's state, the revision's origin, the log and the link check. */
async function recordImport(
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
async function unchanged(
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

/**
 * Two-way: a commit docsync's last export was made on top of (the import waited for it, or was queued
 * before it ran) lacks the service's edits that export brought to git; imported as it is, it would
 * take them out of the service again. The export's commit holds both: it is imported instead,
 * named after the commit asked for.
 */
async function withExportsOnTop(
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
function exportedCommit(state: MappingState): string | undefined {
  const last = state.lastExport;
  if (last?.result === 'committed') return last.sha;
  if (last?.result === 'conflict') return last.committed;
  return undefined;
}
