// Streams over git objects that may be large: a folder's listing (`ls-tree -r -z --long`) and blob
// contents (`cat-file --batch`), each from one git process read at the consumer's pace.
import { waitForDrain } from '../content/wait-for-drain.js';
import { GitError, type GitErrorCode } from './git-error.js';
import { GitOutputReader } from './git-output-reader.js';
import type { GitProcess } from './git-process.js';
import { shownGitPath } from './shown-git-path.js';

export interface TreeEntry {
  /** Posix path relative to the listed folder: `guides/install.md`. */
  path: string;
  /** Git's file mode: `100644`, `100755`, `120000` (symbolic link), `160000` (submodule). */
  mode: string;
  /** The object id: a blob, or the commit of a submodule. */
  blob: string;
  /** Bytes of the blob; 0 for a submodule, whose size git does not know. */
  size: number;
  /**
   * Set when git's name for it is not UTF-8: `path` shows it (shownGitPath), and it is listed to be
   * reported and left alone, never read. A folder so named is one entry, not walked into.
   */
  nameNotUtf8?: true;
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

/**
 * Every file under `treeish`, depth first in git's order; trees are not listed, so a file below a
 * folder whose name is not UTF-8 is listed, with that name shown, as a file of its own.
 */
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

/** A record of `ls-tree -z --long`. */
function parseTreeRecord(git: GitProcess, record: Buffer): TreeEntry {
  const tab = record.indexOf(0x09);
  const match = TREE_LINE.exec(record.subarray(0, tab + 1).toString('latin1'));
  if (tab === -1 || match === null)
    throw git.fail('GIT_OUTPUT_INVALID', 'printed a tree line it cannot read');
  const [, mode = '', , blob = '', size = '-'] = match;
  const name = record.subarray(tab + 1);
  try {
    return { path: utf8.decode(name), mode, blob, size: size === '-' ? 0 : Number(size) };
  } catch {
    return { path: shownGitPath(name), mode, blob, size: 0, nameNotUtf8: true };
  }
}

/**
 * The content of each blob, in the order asked, one blob in memory at a time. The ids are written to
 * git as fast as its stdin takes them (they are small), IDS_PER_WRITE to a write; git answers at the
 * pace the consumer reads, since a full pipe stops it. A missing object or one that is not a blob is a
 * GitError. Ids given as a plain iterable are all known at once and all written, so git may buffer
 * its answers (`--buffer`: written when its buffer fills or its input ends), which costs it fewer
 * writes; an async iterable may wait on an answer before it gives the next id, so git answers each
 * id at once.
 */
export async function* readBlobContents(
  start: StartGit,
  blobs: AsyncIterable<string> | Iterable<string>,
): AsyncGenerator<BlobData> {
  const git = start(
    Symbol.asyncIterator in blobs ? ['cat-file', '--batch'] : ['cat-file', '--batch', '--buffer'],
  );
  yield* streamBlobs(git, new GitOutputReader(git), blobs, 'batch');
}

/**
 * How ids are asked of a running `cat-file`: one id a line (`--batch`, which answers each line at
 * once unless `--buffer`), or `contents <id>` lines each write ending in `flush` (`--batch-command
 * --buffer`, whose output waits for a `flush` or the end of its input).
 */
export type BlobAsking = 'batch' | 'command';

/**
 * The blobs of readBlobContents, asked of `git`, a `cat-file` that has answered all it was asked
 * before, read through `reader`. Its input ends after the last id, and its exit is checked: the
 * stream is its last use. It closes git when it ends, however it ends.
 */
export async function* streamBlobs(
  git: GitProcess,
  reader: GitOutputReader,
  blobs: AsyncIterable<string> | Iterable<string>,
  asking: BlobAsking,
): AsyncGenerator<BlobData> {
  const asked: string[] = [];
  let writing = true;
  let inputError: unknown;
  let wake: (() => void) | undefined;
  const ids = new IdWriter(git, asked, asking, () => wake?.());
  // The ids are written while the answers are read: with full pipes both ways, each side waits on
  // the other's reading, never on its own.
  const writer = (Symbol.asyncIterator in blobs ? ids.writeAsync(blobs) : ids.writeAll(blobs))
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

/** Ids to ask for at once: one write, and one read on git's side, for this many. */
const IDS_PER_WRITE = 256;

/** Writes checked ids to git's stdin in batches, each added to `asked` as it is written. */
class IdWriter {
  private batch: string[] = [];
  private flushQueued = false;
  private drained: Promise<void> | undefined;

  constructor(
    private readonly git: GitProcess,
    private readonly asked: string[],
    private readonly asking: BlobAsking,
    private readonly notify: () => void,
  ) {}

  /** Git failed, or its input closed (the reader left early): nothing more to write. */
  get #stopped(): boolean {
    return this.git.failed !== undefined || this.git.stdin.destroyed;
  }

  async writeAll(blobs: Iterable<string>): Promise<void> {
    for (const blob of blobs) {
      this.add(blob);
      if (this.batch.length === IDS_PER_WRITE) this.flush();
      if (this.drained !== undefined) await this.drained;
      if (this.#stopped) return;
    }
    this.end();
  }

  /**
   * Ids that come one by one: a batch is written once full, or once the ids at hand are all taken
   * (the iterable waits on something else, perhaps on an answer to those ids), whichever comes first.
   */
  async writeAsync(blobs: AsyncIterable<string>): Promise<void> {
    try {
      for await (const blob of blobs) {
        this.add(blob);
        if (this.batch.length === IDS_PER_WRITE) this.flush();
        else if (!this.flushQueued) {
          this.flushQueued = true;
          // A tick runs once the promise jobs queued so far are done: when the next id is not at hand.
          process.nextTick(() => {
            this.flushQueued = false;
            this.flush();
          });
        }
        if (this.drained !== undefined) await this.drained;
        if (this.#stopped) return;
      }
      this.end();
    } finally {
      // Stopped early (a bad id, a failed iterable or git): the queued flush has nothing to write.
      this.batch = [];
    }
  }

  private add(blob: string): void {
    if (!OBJECT_ID.test(blob)) {
      throw new GitError({
        code: 'GIT_INVALID_INPUT',
        args: this.git.args,
        reason: `was asked for ${JSON.stringify(blob.slice(0, 80))}, which is not an object id`,
      });
    }
    this.batch.push(blob);
  }

  private flush(): void {
    const { batch } = this;
    if (batch.length === 0 || this.#stopped) return;
    this.batch = [];
    for (const blob of batch) this.asked.push(blob);
    this.notify();
    const lines =
      this.asking === 'batch' ? `${batch.join('\n')}\n` : `contents ${batch.join('\ncontents ')}\nflush\n`;
    if (!this.git.stdin.write(lines) && this.drained === undefined) {
      this.drained = waitForDrain(this.git.stdin).then(() => {
        this.drained = undefined;
      });
    }
  }

  private end(): void {
    this.flush();
    this.git.stdin.end();
  }
}

async function readOneBlob(git: GitProcess, reader: GitOutputReader, blob: string): Promise<Buffer> {
  // At once when git's answer is here already: a folder of small files is mostly read so.
  const header = reader.takeLine(NEWLINE) ?? (await reader.readUntil(NEWLINE))?.toString('latin1');
  if (header === undefined) throw git.failed ?? git.fail('GIT_OUTPUT_INVALID', 'ended before all blobs');
  const [oid, type = '', size = ''] = header.split(' ');
  if (type === 'missing') throw stop(git, 'GIT_NOT_FOUND', `has no object ${blob}`);
  if (oid !== blob) throw stop(git, 'GIT_OUTPUT_INVALID', `answered ${oid ?? ''} when asked for ${blob}`);
  if (type !== 'blob' || !/^\d+$/.test(size))
    throw stop(git, 'GIT_NOT_FOUND', `found ${blob} is a ${type}, not a blob`);
  // The content and the newline after it in one read.
  const length = Number(size);
  return (reader.takeExactly(length + 1) ?? (await reader.readExactly(length + 1))).subarray(0, length);
}

/** Stops git over an answer that ends the stream: the error to throw. */
function stop(git: GitProcess, code: GitErrorCode, reason: string): GitError {
  git.close();
  return new GitError({ code, args: git.args, reason });
}
