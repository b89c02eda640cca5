// A folder of a commit, listed and read by one git process: `cat-file --batch-command` (git 2.36+)
// answers the commit, the folder's tree and each tree below it, the size of each file, and then the
// files' contents. Starting git blocks this thread for milliseconds (a fork, dearer the larger this
// process), so one process instead of three (`cat-file --batch-check` for the tree id, `ls-tree -r`
// for the listing, `cat-file --batch` for the contents) is most of the time saved on a folder of a
// few hundred files.
import { isUtf8 } from 'node:buffer';
import { GitError } from './git-error.js';
import { type BlobData, type StartGit, streamBlobs, type TreeEntry } from './git-object-streams.js';
import { GitOutputReader } from './git-output-reader.js';
import type { GitProcess } from './git-process.js';
import { objectName } from './revision-names.js';
import { shownGitPath } from './shown-git-path.js';

export interface FolderObjects {
  /** The git tree id of the folder. */
  treeHash: string;
  /**
   * Every file below the folder (paths relative to it), depth first in git's order, as `ls-tree -r`;
   * a folder whose name is not UTF-8 is one entry (TreeEntry.nameNotUtf8), its files not listed.
   */
  entries: TreeEntry[];
  /**
   * The content of each blob, in the order asked, by the process that listed the folder (see
   * readBlobContents); its last use: call it once, or `close` instead.
   */
  readBlobs(blobs: AsyncIterable<string> | Iterable<string>): AsyncIterable<BlobData>;
  /** Stops git when its blobs are not read, or not all of them; safe to call twice. */
  close(): void;
}

/** Said by a git older than 2.36 (exit code 129, its usage). */
const UNKNOWN_OPTION = /unknown option.*batch-command/;
const NEWLINE = 0x0a;
const NUL = 0;
const SPACE = 0x20;
const TREE_MODE = '40000';
const SUBMODULE_MODE = '160000';

/**
 * Lists the folder `path` (checked by gitPath; '' for the root) of commit `sha` (checked by
 * checkSha). Undefined when the folder is not there (no such path, or a file); an unknown commit is a
 * GIT_NOT_FOUND GitError. `'unsupported'` when git is older than 2.36 and has no `--batch-command`:
 * the caller lists the folder another way.
 */
export async function openFolderObjects(
  start: StartGit,
  sha: string,
  path: string,
): Promise<FolderObjects | 'unsupported' | undefined> {
  const git = start(['cat-file', '--batch-command', '--buffer']);
  const reader = new GitOutputReader(git);
  let handedOver = false;
  try {
    // The folder asked by `info` first: a path that names a large file is not sent whole.
    git.stdin.write(`info ${sha}^{commit}\ninfo ${objectName(sha, path)}\nflush\n`);
    const commitLine = await reader.readUntil(NEWLINE);
    if (commitLine === undefined) {
      // No answer at all: git refused the command line (an older git), or failed.
      const refusal = await git.finish().then(
        () => git.fail('GIT_OUTPUT_INVALID', 'ended before it answered'),
        (error: unknown) => error,
      );
      if (refusal instanceof GitError && refusal.exitCode === 129 && UNKNOWN_OPTION.test(refusal.stderr))
        return 'unsupported';
      throw refusal;
    }
    const found = header(git, commitLine.toString('latin1'));
    if (found.type !== 'commit')
      throw new GitError({ code: 'GIT_NOT_FOUND', args: git.args, reason: `has no commit ${sha}` });
    const folder = header(git, await line(git, reader));
    if (folder.type !== 'tree') return undefined;
    const idBytes = folder.oid.length / 2;
    const trees = new Map<string, TreeEntry[]>();
    // Level by level: each level's trees asked at once, answered in one flush.
    for (let level = [folder.oid]; level.length > 0; ) {
      git.stdin.write(`contents ${level.join('\ncontents ')}\nflush\n`);
      for (const oid of level) {
        const tree = header(git, reader.takeLine(NEWLINE) ?? (await line(git, reader)));
        if (tree.oid !== oid || tree.type !== 'tree')
          throw git.fail(
            'GIT_OUTPUT_INVALID',
            `answered ${tree.oid} ${tree.type} when asked for tree ${oid}`,
          );
        trees.set(oid, treeEntries(git, await body(reader, tree.size), idBytes));
      }
      const below = new Set<string>();
      for (const oid of level)
        for (const entry of trees.get(oid) ?? [])
          if (walksInto(entry) && !trees.has(entry.blob)) below.add(entry.blob);
      level = [...below];
    }
    // Each tree's entries become the listing's, their paths made whole; a tree met again (the same
    // content in two places) gives copies, named from the paths its first visit made.
    const entries: TreeEntry[] = [];
    const walked = new Map<string, number>();
    const walk = (oid: string, prefix: string) => {
      const first = walked.get(oid);
      if (first === undefined) walked.set(oid, prefix.length);
      for (const entry of trees.get(oid) ?? []) {
        if (walksInto(entry)) walk(entry.blob, `${prefix}${entry.path}/`);
        // Its whole path shown, the folders above too (a backslash, a control character), as an
        // older git's listing shows it; its own entry kept as the bare name for a second visit.
        else if (entry.nameNotUtf8 !== undefined)
          entries.push({ ...entry, path: shownGitPath(Buffer.from(prefix)) + entry.path });
        else if (first === undefined) {
          entry.path = prefix + entry.path;
          entries.push(entry);
        } else entries.push({ ...entry, path: prefix + entry.path.slice(first) });
      }
    };
    walk(folder.oid, '');
    trees.clear();
    await readSizes(git, reader, entries);
    handedOver = true;
    return {
      treeHash: folder.oid,
      entries,
      readBlobs: (blobs) => streamBlobs(git, reader, blobs, 'command'),
      close: () => git.close(),
    };
  } finally {
    if (!handedOver) git.close();
  }
}

interface ObjectHeader {
  oid: string;
  /** `missing` (or `ambiguous`) when the name names no object. */
  type: string;
  size: number;
}

/** `<oid> <type> <size>`, or `<name> missing` (a name, unlike an id, may hold spaces). */
function header(git: GitProcess, text: string): ObjectHeader {
  if (text.endsWith(' missing') || text.endsWith(' ambiguous'))
    return { oid: text.slice(0, text.lastIndexOf(' ')), type: 'missing', size: 0 };
  const first = text.indexOf(' ');
  const last = text.lastIndexOf(' ');
  const size = text.slice(last + 1);
  if (first === -1 || first === last || !/^\d+$/.test(size))
    throw git.fail('GIT_OUTPUT_INVALID', 'printed an object header it cannot read');
  return { oid: text.slice(0, first), type: text.slice(first + 1, last), size: Number(size) };
}

/** The next line, once git has answered. */
async function line(git: GitProcess, reader: GitOutputReader): Promise<string> {
  const read = await reader.readUntil(NEWLINE);
  if (read === undefined) throw git.failed ?? git.fail('GIT_OUTPUT_INVALID', 'ended before it answered');
  return read.toString('latin1');
}

/** An object's content and the newline after it. */
async function body(reader: GitOutputReader, size: number): Promise<Buffer> {
  const read = reader.takeExactly(size + 1) ?? (await reader.readExactly(size + 1));
  return read.subarray(0, size);
}

/** The size of each file (a submodule's stays 0), from one `info` each, asked at once. */
async function readSizes(
  git: GitProcess,
  reader: GitOutputReader,
  entries: readonly TreeEntry[],
): Promise<void> {
  // A name that is not UTF-8 is only reported: its size is never needed.
  const files = entries.filter((entry) => entry.mode !== SUBMODULE_MODE && entry.nameNotUtf8 === undefined);
  if (files.length === 0) return;
  git.stdin.write(`info ${files.map((entry) => entry.blob).join('\ninfo ')}\nflush\n`);
  for (const file of files) {
    const info = header(git, reader.takeLine(NEWLINE) ?? (await line(git, reader)));
    if (info.type === 'missing') {
      git.close();
      throw new GitError({ code: 'GIT_NOT_FOUND', args: git.args, reason: `has no object ${file.blob}` });
    }
    if (info.oid !== file.blob)
      throw git.fail('GIT_OUTPUT_INVALID', `answered ${info.oid} when asked for ${file.blob}`);
    file.size = info.size;
  }
}

/** A folder the listing goes into: one whose name is not UTF-8 is listed as it is, not its files. */
function walksInto(entry: TreeEntry): boolean {
  return entry.mode === TREE_MODE && entry.nameNotUtf8 === undefined;
}

/**
 * The entries of a tree object (`<mode> SP <name> NUL <binary id>`, each) as a listing's, their
 * paths the names alone: a folder's mode is TREE_MODE, and its id stands as `blob`.
 */
function treeEntries(git: GitProcess, tree: Buffer, idBytes: number): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let at = 0;
  while (at < tree.length) {
    const space = tree.indexOf(SPACE, at);
    const nul = space === -1 ? -1 : tree.indexOf(NUL, space + 1);
    if (nul === -1 || nul + 1 + idBytes > tree.length)
      throw git.fail('GIT_OUTPUT_INVALID', 'printed a tree it cannot read');
    const mode = canonicalMode(git, tree.toString('latin1', at, space));
    // Decoded leniently (no buffer made per name); bytes that are not UTF-8 become U+FFFD, which
    // only then asks for a strict check, to tell them from a name holding U+FFFD itself.
    const name = tree.toString('utf8', space + 1, nul);
    const blob = tree.toString('hex', nul + 1, nul + 1 + idBytes);
    if (name.includes('\uFFFD') && !isUtf8(tree.subarray(space + 1, nul)))
      entries.push({
        path: shownGitPath(tree.subarray(space + 1, nul)),
        mode,
        blob,
        size: 0,
        nameNotUtf8: true,
      });
    else entries.push({ path: name, mode, blob, size: 0 });
    at = nul + 1 + idBytes;
  }
  return entries;
}

const FILE_TYPE = 0o170000;
const REGULAR_FILE = 0o100000;
/** Git's modes of what is not a regular file, by type: a folder, a symbolic link, a submodule. */
const MODES = new Map<number, string>([
  [0o040000, TREE_MODE],
  [0o120000, '120000'],
  [0o160000, SUBMODULE_MODE],
]);

/**
 * A mode as git reads it (`canon_mode`), as `ls-tree` prints it: trees written by old tools hold
 * forms such as `040000` for a folder or `100664` for a file, which git takes for `40000` and
 * `100644`; any regular file is `100755` when its owner may run it, `100644` otherwise.
 */
function canonicalMode(git: GitProcess, text: string): string {
  if (!/^[0-7]{1,7}$/.test(text)) throw git.fail('GIT_OUTPUT_INVALID', 'printed a tree it cannot read');
  const mode = Number.parseInt(text, 8);
  const type = mode & FILE_TYPE;
  if (type === REGULAR_FILE) return mode & 0o100 ? '100755' : '100644';
  return MODES.get(type) ?? SUBMODULE_MODE;
}
