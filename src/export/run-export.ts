// Space to git, one revision: read the space's content, plan the folder (every path checked, all
// offenders named), download its files, and commit the folder on the branch tip with the
// `Docsync-Revision` trailer, then push (never forced). When git changed a file of the folder since
// the commit the space was last known to equal, and the space does not hold the same change, the
// commit goes on that base and to a branch `docsync/conflict-<revision>` instead: neither side's
// change is lost. Content git already has makes no commit.
import type { DocsApiClient } from '../api/docs-api-client.js';
import type { MappingConfig } from '../config/mapping-schema.js';
import { GITBOOK_FILE, readGitbookLayout } from '../content/gitbook-layout.js';
import { treeToFolder } from '../content/tree-to-folder.js';
import { DocsyncError } from '../errors/docsync-error.js';
import type { GitMirror } from '../git/git-mirror.js';
import { DOCSYNC_TRAILER } from '../import/plan-git-poll.js';
import type { Logger } from '../log/create-logger.js';
import type { ExportOutcome, MappingStateStore } from '../state/mapping-state.js';
import { lostGitChanges } from './lost-git-changes.js';
import { readSpaceContent } from './read-space-content.js';

export interface ExportDeps {
  api: DocsApiClient;
  service: { baseUrl: string; token: string };
  mirror: GitMirror;
  state: MappingStateStore;
  log: Logger;
  now: () => Date;
  signal: AbortSignal;
  dryRun: boolean;
}

export async function runExport(deps: ExportDeps, mapping: MappingConfig): Promise<ExportOutcome> {
  const { mirror, signal } = deps;
  const log = deps.log.child({ mapping: mapping.name, space: mapping.space });
  const { revision, tree } = await readSpaceContent({
    api: deps.api,
    service: deps.service,
    space: mapping.space,
    maxFileBytes: mapping.export.maxFileBytes,
    signal,
  });

  await mirror.fetch(signal);
  const { branch, dir } = mapping.git;
  const head = await mirror.resolve(branch, signal);
  if (head === undefined) {
    throw new DocsyncError(
      'BRANCH_NOT_FOUND',
      `branch ${branch} does not exist in the repository of mapping ${mapping.name}`,
    );
  }
  // A `.gitbook.yaml` in the folder says where the docs root is and what the readme and summary
  // are called; the export writes the same layout import reads, and keeps that file.
  const layoutFile = await mirror.readFile(head, joinPath(dir, GITBOOK_FILE), signal);
  const layout = readGitbookLayout(layoutFile?.toString('utf8'));
  const contentDir = joinPath(dir, layout.root);
  const folder = treeToFolder(tree, { readme: layout.readme, summary: layout.summary });
  if (layoutFile !== undefined && layout.root === '.') folder.set(GITBOOK_FILE, layoutFile);

  const state = await deps.state.get(mapping.name);
  let base = state.exportBase;
  const pending = state.pendingConflict;
  if (pending !== undefined && (await mirror.isAncestor(pending.sha, head, signal))) base = pending.sha;
  // Git's changes to the folder since the base that the space's content would undo. With no known
  // base, a two-way mapping cannot tell git's changes from stale space content, so every
  // difference counts; a space-to-git mapping's space is the source of truth.
  const lost =
    base === undefined && mapping.direction !== 'both'
      ? []
      : await lostGitChanges(mirror, { base, head, dir: contentDir, folder, signal });
  const gitMoved = lost.length > 0;
  const parent = base !== undefined && gitMoved ? base : head;
  const at = deps.now().toISOString();
  const conflictBranch = `docsync/conflict-${refSafe(revision.id)}`;
  const sha = await mirror.writeFolderCommit(
    {
      parent,
      dir: contentDir,
      files: folder,
      author: mapping.export.author,
      message: `docs: edits from ${mapping.space} (revision ${revision.id})\n\nExported by docsync from the documentation service.\n\n${DOCSYNC_TRAILER}: ${revision.id}\n`,
      date: deps.now(),
    },
    signal,
  );
  const same =
    (await mirror.treeHash(sha, contentDir, signal)) === (await mirror.treeHash(parent, contentDir, signal));
  if (same) {
    // Git already holds this content: nothing to commit. Without a conflict the branch tip is now
    // known to equal the space.
    const outcome: ExportOutcome = { at, result: 'unchanged', revision: revision.id, files: folder.size };
    if (!deps.dryRun)
      await deps.state.update(mapping.name, {
        lastExport: outcome,
        ...(gitMoved ? {} : { exportBase: head, pendingConflict: null }),
      });
    log.info({ revision: revision.id }, 'space content already in git, nothing committed');
    return outcome;
  }
  if (deps.dryRun) {
    log.info(
      { revision: revision.id, conflict: gitMoved, files: folder.size },
      'dry run: export would be committed',
    );
    return { at, result: 'dry-run', revision: revision.id, files: folder.size };
  }
  if (gitMoved) {
    await mirror.push(sha, conflictBranch, signal);
    const outcome: ExportOutcome = {
      at,
      result: 'conflict',
      revision: revision.id,
      sha,
      branch: conflictBranch,
      files: folder.size,
      changedInGit: lost,
    };
    await deps.state.update(mapping.name, {
      lastExport: outcome,
      pendingConflict: { sha, branch: conflictBranch, revision: revision.id },
    });
    log.warn(
      { revision: revision.id, sha, branch: conflictBranch, base: parent, changedInGit: lost },
      'git changed the folder since the last export: the space edits went to a conflict branch, nothing is lost',
    );
    return outcome;
  }
  await mirror.push(sha, branch, signal);
  const outcome: ExportOutcome = {
    at,
    result: 'committed',
    revision: revision.id,
    sha,
    branch,
    files: folder.size,
  };
  await deps.state.update(mapping.name, { lastExport: outcome, exportBase: sha, pendingConflict: null });
  log.info({ revision: revision.id, sha, branch, files: folder.size }, 'space edits committed and pushed');
  return outcome;
}

function joinPath(dir: string, path: string): string {
  if (dir === '.' || dir === '') return path;
  if (path === '.' || path === '') return dir;
  return `${dir}/${path}`;
}

/** A revision id as a branch name part: git refuses some characters in ref names. */
function refSafe(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 100) || 'revision';
}
