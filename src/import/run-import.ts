// The import of a mapping's folder into the change request docsync keeps for it: bundle the
// folder (from git objects at a commit, or a local working copy), skip it when the content is what
// was imported last, serve the bundle at a signed address, find or make the change request, and ask
// the service to import it. The daemon's job and `docsync once` both run this.
import { join } from 'node:path';
import { bundleGitFolder } from '../content/bundle-git-folder.js';
import { bundleWorkingFolder } from '../content/bundle-working-folder.js';
import { ContentError } from '../content/content-error.js';
import type { WrittenBundle } from '../content/write-bundle.js';
import type { Logger } from '../log/create-logger.js';
import type { MappingState } from '../state/mapping-state.js';
import { renderSubject, subjectMarker } from './change-request-subject.js';
import { contentKey } from './content-key.js';
import { importIntoChangeRequest } from './import-into-change-request.js';
import type { ImportReport } from './import-report.js';
import type { ImportDeps, ImportRequest } from './import-request.js';
import { logImportWarnings, MAX_LOGGED_WARNINGS } from './import-warnings.js';
import { deferredImport, fetchMissingCommits, withExportsOnTop } from './imports-after-exports.js';
import { previewDryRun } from './preview-dry-run.js';
import { recordImport, unchanged } from './record-import.js';
import { shaOf } from './request-sha.js';

export type { ImportReport } from './import-report.js';
export type { ImportDeps, ImportRequest } from './import-request.js';

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
