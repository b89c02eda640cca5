// What an export changes in git's docs root, decided from git's listing and the folder written for
// the space: the files whose bytes differ (the rest are already there), and the owned files the space
// no longer holds, to delete. Nothing else of git's tree is touched. Pure.
import { blobOf, type FolderBytes } from '../content/folder-bytes.js';
import type { ExportPathProblem } from './export-path-error.js';

export interface ListedFile {
  /** Relative to the docs root. */
  path: string;
  /** Git's blob id. */
  blob: string;
}

export interface FolderChanges {
  /** Files to write, by path relative to the docs root: new, or other bytes than git's. */
  write: Map<string, FolderBytes>;
  /** Owned files the space does not hold: deleted. */
  remove: string[];
  /** Each path the export changes: its new bytes, or undefined when it is deleted. */
  changes: Map<string, FolderBytes | undefined>;
  /** Written paths that would replace a file or folder of git the export does not own. */
  problems: ExportPathProblem[];
}

/**
 * `owned`: what the import of git's folder would send. `deletable`: the owned files the space was
 * known to hold (owned at the export base); only those are deleted when the space no longer holds
 * them, so a file git added since the base, or any file when there is no base, is never removed.
 */
export function planFolderChanges(
  listing: readonly ListedFile[],
  owned: ReadonlySet<string>,
  folder: ReadonlyMap<string, FolderBytes>,
  deletable: ReadonlySet<string> = owned,
): FolderChanges {
  const blobs = new Map(listing.map((file) => [file.path, file.blob]));
  const hashLength = listing[0]?.blob.length ?? 40;
  const write = new Map<string, FolderBytes>();
  const changes = new Map<string, FolderBytes | undefined>();
  for (const [path, data] of folder) {
    // Hashed only where git has a file to compare with: a first export hashes nothing.
    const blob = blobs.get(path);
    if (blob !== undefined && blob === blobOf(data, hashLength)) continue;
    write.set(path, data);
    changes.set(path, data);
  }
  const remove = listing
    .map((file) => file.path)
    .filter((path) => owned.has(path) && deletable.has(path) && !folder.has(path));
  for (const path of remove) changes.set(path, undefined);
  return { write, remove, changes, problems: clashes(listing, owned, folder) };
}

/**
 * A written file where git keeps a folder of files the export does not own, or inside a path that is
 * such a file: writing it would delete them.
 */
function clashes(
  listing: readonly ListedFile[],
  owned: ReadonlySet<string>,
  folder: ReadonlyMap<string, FolderBytes>,
): ExportPathProblem[] {
  const staying = listing.map((file) => file.path).filter((path) => !owned.has(path) && !folder.has(path));
  const stayingFiles = new Set(staying);
  const stayingFolders = new Map<string, string>();
  for (const path of staying) {
    const segments = path.split('/');
    for (let depth = 1; depth < segments.length; depth += 1)
      stayingFolders.set(segments.slice(0, depth).join('/'), path);
  }
  const problems: ExportPathProblem[] = [];
  for (const path of folder.keys()) {
    const inside = stayingFolders.get(path);
    if (inside !== undefined) {
      problems.push({
        subject: `path ${path}`,
        reason: `is a folder in git holding ${inside}, which the export leaves alone`,
      });
      continue;
    }
    const segments = path.split('/');
    for (let depth = 1; depth < segments.length; depth += 1) {
      const above = segments.slice(0, depth).join('/');
      if (stayingFiles.has(above)) {
        problems.push({
          subject: `path ${path}`,
          reason: `is inside ${above}, a file in git the export leaves alone`,
        });
        break;
      }
    }
  }
  return problems;
}
