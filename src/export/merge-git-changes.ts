// Reads both sides of an export's changes from the mirror (the blob ids of the docs root at the base
// and at the branch tip) and decides, file by file, what the export writes, what stays git's and
// what conflicts (planFileMerge). Only the paths the export changes count: it owns only what the
// service holds, so git's changes elsewhere (dotfiles, unlisted pages, files left out) are never in
// the way.
import { blobOf, type FolderBytes } from '../content/folder-bytes.js';
import type { GitMirror } from '../git/git-mirror.js';
import { type FileMerge, planFileMerge } from './plan-file-merge.js';

export interface GitChangesInput {
  /** Undefined: nothing is known to equal the space; every change is a conflict. */
  base: string | undefined;
  head: string;
  /** The docs root in the repository. */
  dir: string;
  /** What the export writes there (path relative to `dir` to bytes), or deletes (undefined). */
  changes: ReadonlyMap<string, FolderBytes | undefined>;
  signal: AbortSignal;
}

export async function mergeGitChanges(
  mirror: Pick<GitMirror, 'openFolder'>,
  input: GitChangesInput,
): Promise<FileMerge> {
  // Nothing to write (the space equals git's folder): no side needs listing.
  if (input.changes.size === 0) return { apply: [], keepGit: [], conflicts: [] };
  const head = await blobsOf(mirror, input.head, input.dir, input.signal);
  const base =
    input.base === undefined ? undefined : await blobsOf(mirror, input.base, input.dir, input.signal);
  const hashLength = [...head.values()][0]?.length ?? [...(base?.values() ?? [])][0]?.length ?? 40;
  const written = new Map<string, string | undefined>();
  for (const [path, data] of input.changes)
    written.set(path, data === undefined ? undefined : blobOf(data, hashLength));
  return planFileMerge(written, { base, head });
}

async function blobsOf(
  mirror: Pick<GitMirror, 'openFolder'>,
  sha: string,
  dir: string,
  signal: AbortSignal,
): Promise<Map<string, string>> {
  const blobs = new Map<string, string>();
  // One git process for the listing, stopped before any content is read.
  const folder = await mirror.openFolder(sha, dir, { signal });
  folder?.close();
  for (const entry of folder?.entries ?? []) blobs.set(entry.path, entry.blob);
  return blobs;
}
