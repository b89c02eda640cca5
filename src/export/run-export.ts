// Space to git, one revision: read git's docs folder at the branch tip (what docsync owns there),
// read the space's content (every path checked, all offenders named), write the space's folder over
// git's (the summary kept or edited line by line), and commit only what changes: files with other
// bytes, and owned files the space no longer holds, deleted; every other path of the repository
// untouched, modes kept. The commit carries the `Docsync-Revision` trailer and is pushed (never
// forced). When git changed a path the export would change since the commit the space was last
// known to equal, the commit goes on that base and to a branch `docsync/conflict-<revision>`
// instead: neither side's change is lost. Content git already has makes no commit.
import type { DocsApiClient } from '../api/docs-api-client.js';
import type { MappingConfig } from '../config/mapping-schema.js';
import type { DocsTree } from '../content/docs-tree.js';
import { treeToFolder } from '../content/tree-to-folder.js';
import { DocsyncError } from '../errors/docsync-error.js';
import { DOCSYNC_TRAILER } from '../git/docsync-trailer.js';
import type { GitMirror } from '../git/git-mirror.js';
import type { Logger } from '../log/create-logger.js';
import type { ExportOutcome, MappingStateStore } from '../state/mapping-state.js';
import { ExportPathError } from './export-path-error.js';
import { lostGitChanges } from './lost-git-changes.js';
import { planExportBase, planExportParent, planExportResult } from './plan-export.js';
import { type FolderChanges, planFolderChanges } from './plan-folder-commit.js';
import { type GitFolder, readGitFolder } from './read-git-folder.js';
import { readSpaceContent } from './read-space-content.js';

export interface ExportDeps {
  api: DocsApiClient;
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
  await mirror.fetch(signal);
  const { branch } = mapping.git;
  const head = await mirror.resolve(branch, signal);
  if (head === undefined) {
    throw new DocsyncError(
      'BRANCH_NOT_FOUND',
      `branch ${branch} does not exist in the repository of mapping ${mapping.name}`,
    );
  }
  // Git's folder first: where the docs root is, what the readme is called, which paths are taken.
  const atHead = await readGitFolder(mirror, head, mapping, signal);
  const { revision, tree } = await readSpaceContent({
    api: deps.api,
    space: mapping.space,
    maxFileBytes: mapping.export.maxFileBytes,
    signal,
    layout: { readme: atHead.layout.readme, existing: new Set(atHead.listing.map((entry) => entry.path)) },
  });
  const state = await deps.state.get(mapping.name);
  const pending = state.pendingConflict;
  const { base, checkGitChanges } = planExportBase({
    exportBase: state.exportBase,
    pendingConflict: pending,
    pendingIsAncestor: pending !== undefined && (await mirror.isAncestor(pending.sha, head, signal)),
    direction: mapping.direction,
  });
  // Only a file the space was known to hold (owned at the base) can have been deleted in the
  // service. With no base nothing is deleted: a file the space never held is not the space's to
  // remove, whatever the mapping's direction.
  const deletable =
    base === undefined
      ? new Set<string>()
      : new Set((await readGitFolder(mirror, base, mapping, signal)).plan.entries.map((entry) => entry.path));
  let planned = planChanges(atHead, tree, mapping, revision.id, deletable);
  // Git's changes to the folder since the base that the space's content would undo.
  const lost = checkGitChanges
    ? await lostGitChanges(mirror, {
        base,
        head,
        dir: atHead.contentDir,
        changes: planned.changes.changes,
        signal,
      })
    : [];
  const { gitMoved, parent } = planExportParent(base, head, lost);
  // On a conflict the commit goes on the base: what the export owns and changes is decided there.
  if (parent !== head)
    planned = planChanges(
      await readGitFolder(mirror, parent, mapping, signal),
      tree,
      mapping,
      revision.id,
      deletable,
    );
  const { folder, changes, git } = planned;
  const at = deps.now().toISOString();
  // Bytes git already has at every path: no commit to write at all.
  const nothing = changes.write.size === 0 && changes.remove.length === 0;
  const sha = nothing
    ? parent
    : await mirror.writeFolderCommit(
        {
          parent,
          dir: git.contentDir,
          files: changes.write,
          remove: changes.remove,
          author: mapping.export.author,
          message: `docs: edits from ${mapping.space} (revision ${revision.id})\n\nExported by docsync from the documentation service.\n\n${DOCSYNC_TRAILER}: ${revision.id}\n`,
          date: deps.now(),
        },
        signal,
      );
  const same =
    nothing ||
    (await mirror.treeHash(sha, git.contentDir, signal)) ===
      (await mirror.treeHash(parent, git.contentDir, signal));
  const plan = planExportResult({
    same,
    dryRun: deps.dryRun,
    gitMoved,
    head,
    sha,
    branch,
    revision: revision.id,
  });
  switch (plan.kind) {
    case 'unchanged': {
      const outcome: ExportOutcome = { at, result: 'unchanged', revision: revision.id, files: folder.size };
      if (!deps.dryRun) await deps.state.update(mapping.name, { lastExport: outcome, ...plan.state });
      log.info({ revision: revision.id }, 'space content already in git, nothing committed');
      return outcome;
    }
    case 'dry-run':
      log.info(
        { revision: revision.id, conflict: gitMoved, files: folder.size },
        'dry run: export would be committed',
      );
      return { at, result: 'dry-run', revision: revision.id, files: folder.size };
    case 'conflict':
    case 'committed': {
      await mirror.push(sha, plan.branch, signal);
      const conflict = plan.kind === 'conflict';
      const outcome: ExportOutcome = {
        at,
        result: plan.kind,
        revision: revision.id,
        sha,
        branch: plan.branch,
        files: folder.size,
        ...(conflict ? { changedInGit: lost } : {}),
      };
      await deps.state.update(mapping.name, { lastExport: outcome, ...plan.state });
      if (conflict)
        log.warn(
          { revision: revision.id, sha, branch: plan.branch, base: parent, changedInGit: lost },
          'git changed the folder since the last export: the space edits went to a conflict branch, nothing is lost',
        );
      else
        log.info(
          {
            revision: revision.id,
            sha,
            branch: plan.branch,
            files: folder.size,
            written: changes.write.size,
            deleted: changes.remove.length,
          },
          'space edits committed and pushed',
        );
      return outcome;
    }
  }
}

interface PlannedChanges {
  git: GitFolder;
  /** The space as the docs folder holds it: pages, files and the summary. */
  folder: Map<string, Buffer>;
  changes: FolderChanges;
}

/** The space's folder over git's at one commit, and what writing it there changes. */
function planChanges(
  git: GitFolder,
  tree: DocsTree,
  mapping: MappingConfig,
  revision: string,
  deletable: ReadonlySet<string>,
): PlannedChanges {
  const { layout, plan } = git;
  const folder = treeToFolder(tree, {
    readme: layout.readme,
    summary: layout.summary,
    unlisted: mapping.import.unlisted,
    current: {
      summary: git.summary,
      outline: plan.outline,
      staying: plan.leftOut.filter((file) => file.reason === 'unlisted').map((file) => file.path),
    },
  });
  const owned = new Set(plan.entries.map((entry) => entry.path));
  const changes = planFolderChanges(git.listing, owned, folder, deletable);
  if (changes.problems.length > 0) throw new ExportPathError(mapping.space, revision, changes.problems);
  return { git, folder, changes };
}
