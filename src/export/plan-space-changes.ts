// The space's folder written over git's docs root at one commit (the summary kept or edited line by
// line), and what that changes there: the export's plan once both sides are read. Pure.
import type { MappingConfig } from '../config/mapping-schema.js';
import type { DocsTree } from '../content/docs-tree.js';
import type { FolderBytes, StoredBlob } from '../content/folder-bytes.js';
import { treeToFolder } from '../content/tree-to-folder.js';
import { ExportPathError } from './export-path-error.js';
import { type FolderChanges, planFolderChanges } from './plan-folder-commit.js';
import type { GitFolder } from './read-git-folder.js';
import { STORED_CONTENT, type StoredText } from './stored-text.js';

export interface PlannedChanges {
  git: GitFolder;
  /** The space as the docs folder holds it: pages, files and the summary. */
  folder: Map<string, FolderBytes>;
  changes: FolderChanges;
}

/** The space's folder over git's at one commit, and what writing it there changes. */
export function planSpaceChanges(
  git: GitFolder,
  tree: DocsTree<StoredText, StoredBlob>,
  mapping: MappingConfig,
  revision: string,
  deletable: ReadonlySet<string>,
): PlannedChanges {
  const { layout, plan } = git;
  const folder = treeToFolder(
    tree,
    {
      readme: layout.readme,
      summary: layout.summary,
      unlisted: mapping.import.unlisted,
      current: {
        summary: git.summary,
        outline: plan.outline,
        staying: plan.leftOut.filter((file) => file.reason === 'unlisted').map((file) => file.path),
      },
    },
    STORED_CONTENT,
  );
  const owned = new Set(plan.entries.map((entry) => entry.path));
  const changes = planFolderChanges(git.listing, owned, folder, deletable);
  if (changes.problems.length > 0) throw new ExportPathError(mapping.space, revision, changes.problems);
  return { git, folder, changes };
}
