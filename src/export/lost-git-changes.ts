// The conflict test of space to git. Git changed a path of the docs folder since `base` (the commit
// the space was last known to equal); an export on the branch tip undoes that change when it writes
// other bytes there or deletes the file. Only the paths the export changes count: it owns only what
// the service holds, so git's changes elsewhere (dotfiles, unlisted pages, files left out) are never
// in the way. Those paths are what a commit on the tip would lose: when there are any, the export
// goes to a conflict branch instead. Blob ids are compared, so no file is read back from git.
import type { GitMirror } from '../git/git-mirror.js';
import { blobId } from './plan-folder-commit.js';

export interface LostChangesInput {
  /** Undefined: nothing is known to equal the space; every difference from the tip counts. */
  base: string | undefined;
  head: string;
  /** The docs folder in the repository. */
  dir: string;
  /** What the export writes there (path relative to `dir` to bytes), or deletes (undefined). */
  changes: ReadonlyMap<string, Buffer | undefined>;
  signal: AbortSignal;
}

/** At most this many paths are listed; one is enough to decide. */
const MAX_LISTED = 20;

export async function lostGitChanges(
  mirror: Pick<GitMirror, 'treeHash' | 'listTree'>,
  input: LostChangesInput,
): Promise<string[]> {
  const head = await blobsOf(mirror, input.head, input.dir, input.signal);
  const base =
    input.base === undefined ? undefined : await blobsOf(mirror, input.base, input.dir, input.signal);
  const hashLength = [...head.values()][0]?.length ?? [...(base?.values() ?? [])][0]?.length ?? 40;
  const lost: string[] = [];
  for (const path of [...input.changes.keys()].sort()) {
    const atHead = head.get(path);
    if (base !== undefined && base.get(path) === atHead) continue; // git did not touch it
    const data = input.changes.get(path);
    const written = data === undefined ? undefined : blobId(data, hashLength);
    if (written !== atHead) lost.push(path);
    if (lost.length >= MAX_LISTED) break;
  }
  return lost;
}

async function blobsOf(
  mirror: Pick<GitMirror, 'treeHash' | 'listTree'>,
  sha: string,
  dir: string,
  signal: AbortSignal,
): Promise<Map<string, string>> {
  const blobs = new Map<string, string>();
  if (dir !== '' && dir !== '.' && (await mirror.treeHash(sha, dir, signal)) === undefined) return blobs;
  for await (const entry of mirror.listTree(sha, dir, signal)) blobs.set(entry.path, entry.blob);
  return blobs;
}
