// Streams over git objects that may be large: a folder's listing (`ls-tree -r -z --long`) and blob
// contents (`cat-file --batch`), each from one git process read at the consumer's pace.
import { waitForDrain } from '../content/wait-for-drain.js';
import { GitError, type GitErrorCode } from './git-error.js';
import { GitOutputReader } from './git-output-reader.js';
import type { GitProcess } from './git-process.js';

export interface TreeEntry {
  /** Posix path relative to the listed folder: `guides/install.md`. */
  path: string;
  /** Git's file mode: `100644`, `100755`, `120000` (symbolic link), `160000` (submodule). */
  mode: string;
  /** The object id: a blob, or the commit of a submodule. */
  blob: string;
  /** Bytes of the blob; 0 for a submodule, whose size git does not know. */
  size: number;
}

export interface BlobData {
  blob: string;
  data: Buffer;
}

/** Starts git with these arguments in the mirror; the caller owns the process. */
export type StartGit = (args: readonly string[]) => GitProcess;

const NUL = 0;
const NEWLINE = 0x0a;
const OBJECT_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
// `<mode> SP <type> SP <object> SP+ <size> TAB <path>`
const TREE_LINE = /^([0-7]{6}) ([a-z]+) ([0-9a-f]{40,64}) +(-|\d+)\t/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Every file under `treeish` (`<sha>:<dir>`), depth first in git's order; trees are not listed. */
export async function* listTreeEntries(start: StartGit, treeish: string): AsyncGenerator<TreeEntry> {
  const git = start(['ls-tree', '-r', '-z', '--long', treeish]);
  git.stdin.end();
  const reader = new GitOutputReader(git);
  try {
    for (;;) {
      const record = await reader.readUntil(NUL);
      if (record === undefined) break;
      yield parseTreeRecord(git, record);
    }
    await git.finish();
  } finally {
    git.close();
  }
}

function parseTreeRecord(git: GitProcess, record: Buffer): TreeEntry {
  const tab = record.indexOf(0x09);
  const match = TREE_LINE.exec(record.subarray(0, tab + 1).toString('latin1'));
  if (tab === -1 || match === null)
    throw git.fail('GIT_OUTPUT_INVALID', 'printed a tree line it cannot read');
  const [, mode = '', , blob = '', size = '-'] = match;
  let path: string;
  try {
    path = utf8.decode(record.subarray(tab + 1));
  } catch {
    throw git.fail('GIT_OUTPUT_INVALID', 'listed a path that is not UTF-8');
  }
  return { path, mode, blob, size: size === '-' ? 0 : Number(size) };
}

/**
 * The content of each blob, in the order asked, one blob in memory at a time. The ids are written to
 * git as fast as its stdin takes them (they are small); git answers at the pace the consumer reads,
 * since a full pipe stops it. A missing object or one that is not a blob is a GitError.
 */
export async function* readBlobContents(
  start: StartGit,
  blobs: AsyncIterable<string> | Iterable<string>,
): AsyncGenerator<BlobData> {
  const git = start(['cat-file', '--batch']);
  const reader = new GitOutputReader(git);
  const asked: string[] = [];
  let writing = true;
  let inputError: unknown;
  let wake: (() => void) | undefined;
  const writer = writeIds(git, blobs, asked, () => wake?.())
    .catch((error: unknown) => {
      // The ids could not be read: stop git, and let the reader report the caller's error.
      inputError = error;
      git.close();
    })
    .finally(() => {
      writing = false;
      wake?.();
    });
  try {
    for (;;) {
      while (asked.length === 0 && writing) await new Promise<void>((resolve) => (wake = resolve));
      const blob = asked.shift();
      if (blob === undefined) break;
      yield { blob, data: await readOneBlob(git, reader, blob) };
    }
    await writer;
    if (inputError !== undefined) throw inputError;
    await git.finish();
  } catch (error) {
    throw inputError ?? error;
  } finally {
    git.close();
  }
}

async function writeIds(
  git: GitProcess,
  blobs: AsyncIterable<string> | Iterable<string>,
  asked: string[],
  notify: () => void,
): Promise<void> {
  for await (const blob of blobs) {
    if (!OBJECT_ID.test(blob)) {
      throw new GitError({
        code: 'GIT_INVALID_INPUT',
        args: git.args,
        reason: `was asked for ${JSON.stringify(blob.slice(0, 80))}, which is not an object id`,
      });
    }
    asked.push(blob);
    notify();
    if (!git.stdin.write(`${blob}\n`)) await waitForDrain(git.stdin);
    if (git.failed !== undefined) return;
  }
  git.stdin.end();
}

async function readOneBlob(git: GitProcess, reader: GitOutputReader, blob: string): Promise<Buffer> {
  const header = (await reader.readUntil(NEWLINE))?.toString('latin1');
  if (header === undefined) throw git.failed ?? git.fail('GIT_OUTPUT_INVALID', 'ended before all blobs');
  const [oid, type = '', size = ''] = header.split(' ');
  const fail = (code: GitErrorCode, reason: string): GitError => {
    git.close();
    return new GitError({ code, args: git.args, reason });
  };
  if (type === 'missing') throw fail('GIT_NOT_FOUND', `has no object ${blob}`);
  if (oid !== blob) throw fail('GIT_OUTPUT_INVALID', `answered ${oid ?? ''} when asked for ${blob}`);
  if (type !== 'blob' || !/^\d+$/.test(size))
    throw fail('GIT_NOT_FOUND', `found ${blob} is a ${type}, not a blob`);
  const data = await reader.readExactly(Number(size));
  await reader.readExactly(1);
  return data;
}
