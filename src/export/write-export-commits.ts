// The commits of one export, made in the mirror before anything is pushed: the service's changes git
// did not touch on the branch tip, the files both sides changed on a conflict branch, and the next
// base (the tip with the space's version of the files git alone changed). run-export.ts pushes them
// after writing ahead the state they lead to.
import type { MappingConfig } from '../config/mapping-schema.js';
import type { FolderBytes } from '../content/folder-bytes.js';
import { joinGitPath } from '../content/git-listing.js';
import { DOCSYNC_TRAILER } from '../git/docsync-trailer.js';
import type { GitMirror } from '../git/git-mirror.js';
import type { Logger } from '../log/create-logger.js';
import { conflictBranch, type ExportWrites } from './plan-export.js';
import type { FileMerge } from './plan-file-merge.js';
import type { ExportDeps, ExportReading } from './run-export.js';
import { syntheticBaseMessage } from './synthetic-base.js';

/** What every commit step of one export reads: the run's clients, the mapping, its reading and merge. */
export interface ExportWriting {
  deps: Pick<ExportDeps, 'mirror' | 'now' | 'signal' | 'dryRun'>;
  mapping: MappingConfig;
  reading: ExportReading;
  head: string;
  merge: FileMerge;
  writes: Exclude<ExportWrites, 'dry-run'>;
}

export const exportBaseRef = (mapping: string) => `export-base/${mapping}`;
export const resolvedBaseRef = (mapping: string) => `resolved-base/${mapping}`;

/** A commit of the space's version of `paths` on `parent`, in the mirror. */
function commitPaths(w: ExportWriting, parent: string, paths: readonly string[], message: string) {
  return w.deps.mirror.writeFolderCommit(
    {
      parent,
      dir: w.reading.contentDir,
      ...pick(w.reading.changes.changes, paths),
      author: w.mapping.export.author,
      message,
      date: w.deps.now(),
    },
    w.deps.signal,
  );
}

function trailerOf(w: ExportWriting): string {
  return `${DOCSYNC_TRAILER}: ${w.reading.revision}`;
}

/**
 * 1. The service's changes git did not touch, on the branch tip: the commit, or undefined when there
 * is none or it leaves the docs folder as it was.
 */
export async function commitServiceEdits(w: ExportWriting): Promise<string | undefined> {
  const { mirror, signal } = w.deps;
  const { merge, mapping, head } = w;
  const { contentDir, revision } = w.reading;
  if (w.writes !== 'write' || merge.apply.length === 0) return undefined;
  const sha = await commitPaths(
    w,
    head,
    merge.apply,
    `docs: edits from ${mapping.space} (revision ${revision})\n\nExported by docsync from the documentation service.\n\n${trailerOf(w)}\n`,
  );
  if ((await mirror.treeHash(sha, contentDir, signal)) !== (await mirror.treeHash(head, contentDir, signal)))
    return sha;
  return undefined;
}

/** The conflict branch's commit, if any, and whether it is to be pushed. */
export interface ConflictCommit {
  /** The last commit the space equalled in every file, where the conflict commit goes. */
  conflictParent: string;
  conflict: string | undefined;
  pushConflict: boolean;
  conflictAt: string;
}

/**
 * 2. The files both sides changed, on the last commit the space equalled in every file (a branch
 * commit, never a base docsync made): merging the branch shows git's conflict per file.
 */
export async function commitConflicts(w: ExportWriting): Promise<ConflictCommit> {
  const { mirror, signal } = w.deps;
  const { merge, mapping, head } = w;
  const { state, base, revision } = w.reading;
  const conflictParent =
    state.conflictParent !== undefined && (await mirror.hasCommit(state.conflictParent, signal))
      ? state.conflictParent
      : (base ?? head);
  const conflictAt = conflictBranch(revision);
  if (w.writes !== 'write' || merge.conflicts.length === 0)
    return { conflictParent, conflict: undefined, pushConflict: false, conflictAt };
  // The branch exists when this revision's export ran before (and stopped before saving its
  // state): the commit goes on it, and is not pushed when it changes nothing there.
  const existing = await mirror.resolve(conflictAt, signal);
  const sha = await commitPaths(
    w,
    existing ?? conflictParent,
    merge.conflicts,
    `docs: conflicting edits from ${mapping.space} (revision ${revision})\n\nChanged in git and in the documentation service since the last export:\n${merge.conflicts.map((path) => `- ${path}`).join('\n')}\nMerge this branch to resolve them. Exported by docsync.\n\n${trailerOf(w)}\n`,
  );
  const same =
    existing !== undefined &&
    (await mirror.treeHash(existing, '.', signal)) === (await mirror.treeHash(sha, '.', signal));
  return { conflictParent, conflict: same ? existing : sha, pushConflict: !same, conflictAt };
}

/**
 * 3. The next base: the tip with the space's version of the files git alone changed (and the
 * base's of those in conflict), kept in the mirror; the tip itself when nothing differs. With a
 * conflict, also the base once it is resolved (the space's version of every file).
 */
export async function writeNextBase(
  w: ExportWriting,
  tip: string,
  conflict: string | undefined,
  log: Logger,
): Promise<{ nextBase: string; resolvedBase: string | undefined }> {
  const { mirror, signal } = w.deps;
  const { merge, mapping } = w;
  const { contentDir, revision, base, changes } = w.reading;
  if (w.deps.dryRun || (merge.keepGit.length === 0 && merge.conflicts.length === 0))
    return { nextBase: tip, resolvedBase: undefined };
  const message = syntheticBaseMessage(mapping.name, revision);
  const baseSide = await baseVersions(mirror, base, contentDir, merge.conflicts, signal);
  const spaceSide = pick(changes.changes, merge.keepGit);
  const nextBase = await mirror.writeFolderCommit(
    {
      parent: tip,
      dir: contentDir,
      files: new Map([...baseSide.files, ...spaceSide.files]),
      remove: [...baseSide.remove, ...spaceSide.remove],
      author: mapping.export.author,
      message,
      date: w.deps.now(),
    },
    signal,
  );
  await keepAndShare(mirror, nextBase, exportBaseRef(mapping.name), log, signal);
  if (conflict === undefined) return { nextBase, resolvedBase: undefined };
  const resolvedBase = await commitPaths(w, nextBase, merge.conflicts, message);
  await keepAndShare(mirror, resolvedBase, resolvedBaseRef(mapping.name), log, signal);
  return { nextBase, resolvedBase };
}

/**
 * A base docsync made, kept from git's garbage collection and shared on the remote for the next
 * export wherever it runs. Not shared (a remote refusing docsync's own refs), the next export in
 * another process has no base: a service edit of a file git also changed goes to a conflict branch.
 */
async function keepAndShare(mirror: GitMirror, sha: string, name: string, log: Logger, signal: AbortSignal) {
  await mirror.keep(sha, name, signal);
  await mirror.share(sha, name, signal).catch((error: unknown) => {
    log.warn(
      { err: error, sha, ref: name },
      'export base not shared on the remote, other processes export without it',
    );
  });
}

/** The files to write and the paths to delete for `paths`, taken from the export's changes. */
function pick(
  changes: ReadonlyMap<string, FolderBytes | undefined>,
  paths: readonly string[],
): { files: Map<string, FolderBytes>; remove: string[] } {
  const files = new Map<string, FolderBytes>();
  const remove: string[] = [];
  for (const path of paths) {
    const data = changes.get(path);
    if (data === undefined) remove.push(path);
    else files.set(path, data);
  }
  return { files, remove };
}

/** The base's bytes of `paths` (deleted where the base has none), to merge with other writes. */
async function baseVersions(
  mirror: GitMirror,
  base: string | undefined,
  dir: string,
  paths: readonly string[],
  signal: AbortSignal,
): Promise<{ files: Map<string, Buffer>; remove: string[] }> {
  const files = new Map<string, Buffer>();
  const remove: string[] = [];
  for (const path of paths) {
    const data = base === undefined ? undefined : await mirror.readFile(base, joinGitPath(dir, path), signal);
    if (data === undefined) remove.push(path);
    else files.set(path, data);
  }
  return { files, remove };
}
