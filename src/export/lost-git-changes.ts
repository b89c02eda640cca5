// The conflict test of space to git. Git changed a path of the folder since `base` (the commit the
// space was last known to equal); writing the space's folder on the branch tip undoes that change
// unless the space already holds the same bytes there (it was imported, or made alike in both).
// Those paths are what a commit on the tip would lose: when there are any, the export goes to a
// conflict branch instead. Blob ids are compared, so no file is read back from git.
import { createHash } from 'node:crypto';
import type { GitMirror } from '../git/git-mirror.js';

export interface LostChangesInput {
  /** Undefined: nothing is known to equal the space; every difference from the tip counts. */
  base: string | undefined;
  head: string;
  /** The folder in the repository the export replaces. */
  dir: string;
  /** What the export writes there, by path relative to `dir`. */
  folder: ReadonlyMap<string, Buffer>;
  signal: AbortSignal;
}

/** At most this many paths are listed; one is enough to decide. */
const MAX_LISTED = 20;

export async function lostGitChanges(mirror: GitMirror, input: LostChangesInput): Promise<string[]> {
  const head = await blobsOf(mirror, input.head, input.dir, input.signal);
  const base =
    input.base === undefined ? undefined : await blobsOf(mirror, input.base, input.dir, input.signal);
  const hashLength = [...head.values()][0]?.length ?? 40;
  const lost: string[] = [];
  const paths = new Set([...head.keys(), ...(base?.keys() ?? [])]);
  for (const path of [...paths].sort()) {
    const atHead = head.get(path);
    if (base !== undefined && base.get(path) === atHead) continue; // git did not touch it
    const data = input.folder.get(path);
    const written = data === undefined ? undefined : blobId(data, hashLength);
    if (written !== atHead) lost.push(path);
    if (lost.length >= MAX_LISTED) break;
  }
  return lost;
}

async function blobsOf(
  mirror: GitMirror,
  sha: string,
  dir: string,
  signal: AbortSignal,
): Promise<Map<string, string>> {
  const blobs = new Map<string, string>();
  if (dir !== '' && dir !== '.' && (await mirror.treeHash(sha, dir, signal)) === undefined) return blobs;
  for await (const entry of mirror.listTree(sha, dir, signal)) blobs.set(entry.path, entry.blob);
  return blobs;
}

/** Git's id of a blob with these bytes: sha1, or sha256 in a repository of that object format. */
function blobId(data: Buffer, hashLength: number): string {
  return createHash(hashLength === 64 ? 'sha256' : 'sha1')
    .update(`blob ${data.length}\0`)
    .update(data)
    .digest('hex');
}
