// Writes blobs into a bare repository as they come, with one `git fast-import` for all of them: an
// export hands each page's and file's bytes over as soon as it has read them and keeps only the
// blob's id and size (src/content/folder-bytes.ts), so that a space's content is never in memory
// all at once. The id is computed here as git computes it, so it is known at once, before git has
// the object: git has it once `finish` resolved. Bytes the repository already holds (the caller
// says which ids: the folder at the branch tip, possibly still being listed) and bytes handed over
// twice are not written again; until the ids git holds are known, what is handed over waits here.
// When git's input pipe is full, or too much waits (`congested`), the caller awaits `drained`
// before handing over more, so that what waits stays small. A writer closed (the export failed
// elsewhere) or whose git is gone refuses more and rejects its waits, so that nobody waits on it.
import { once } from 'node:events';
import { blobId, type StoredBlob } from '../content/folder-bytes.js';
import { GitError } from './git-error.js';
import { type GitCommandOptions, GitProcess } from './git-process.js';

/** glibc grows fast-import's heap by a few KiB per object; padded, it grows in large steps. */
const FAST_IMPORT_MALLOC = { MALLOC_TOP_PAD_: String(64 * 1024 * 1024) };
/** Bytes handed over that may wait for the ids git holds before the caller is asked to wait too. */
const MAX_WAITING_BYTES = 4 * 1024 * 1024;

export interface BlobWriterOptions extends GitCommandOptions {
  /** The length of the repository's object ids: 40 (sha1) or 64 (sha256). */
  hashLength: number;
  /** Ids of blobs the repository holds (as they are listed), never written again. */
  known?: Promise<ReadonlySet<string>>;
}

export class BlobWriter {
  readonly #git: GitProcess;
  readonly #hashLength: number;
  /** Blobs handed over so far (written, or waiting to be), by id. */
  readonly #handed = new Set<string>();
  #known: ReadonlySet<string> | undefined;
  /** Until the ids git holds are known: what was handed over meanwhile, and their bytes. */
  #early: { blobs: { blob: string; data: Buffer }[]; bytes: number; ready: Promise<void> } | undefined;
  #pipeFull: Promise<void> | undefined;
  #finished: Promise<void> | undefined;
  /** Set by close(): what every later call fails with. */
  #closed: GitError | undefined;
  /** git exited before it was told it had every blob. */
  #gone = false;
  #count = 0;
  #corked = false;
  readonly #uncork = (): void => {
    this.#corked = false;
    this.#git.stdin.uncork();
  };

  constructor(gitDir: string, options: BlobWriterOptions) {
    const { hashLength, known, ...command } = options;
    this.#hashLength = hashLength;
    this.#git = new GitProcess(['--git-dir', gitDir, 'fast-import', '--quiet', '--done'], {
      ...command,
      env: { ...command.env, ...FAST_IMPORT_MALLOC },
    });
    // fast-import prints nothing with --quiet: drained so that it never blocks on a full pipe.
    this.#git.stdout.resume();
    void this.#git.ended.then(() => {
      if (this.#finished === undefined) this.#gone = true;
    });
    if (known !== undefined) {
      const early = { blobs: [] as { blob: string; data: Buffer }[], bytes: 0, ready: Promise.resolve() };
      // Listing git's ids failed: everything is written, which costs only room.
      early.ready = known.then(
        (ids) => this.#release(ids),
        () => this.#release(new Set()),
      );
      this.#early = early;
    }
  }

  /** Blobs written so far (not counting those the repository held, or given twice). */
  get count(): number {
    return this.#count;
  }

  /** Whether the caller should await `drained()` before handing over more. */
  get congested(): boolean {
    return (
      this.#closed !== undefined ||
      this.#gone ||
      this.#pipeFull !== undefined ||
      (this.#early?.bytes ?? 0) > MAX_WAITING_BYTES
    );
  }

  /** The blob of `data`, written unless the repository holds it. */
  add(data: Buffer): StoredBlob {
    if (this.#closed !== undefined) throw this.#closed;
    if (this.#finished !== undefined) throw new Error('blob writer already finished');
    const blob = blobId(data, this.#hashLength);
    if (!this.#handed.has(blob)) {
      this.#handed.add(blob);
      if (this.#early !== undefined) {
        this.#early.blobs.push({ blob, data });
        this.#early.bytes += data.length;
      } else if (this.#known?.has(blob) !== true) this.#write(data);
    }
    return { blob, size: data.length };
  }

  /**
   * Resolves once what was handed over may be followed by more (at once when nothing waits);
   * rejects once the writer was closed or its git is gone.
   */
  async drained(): Promise<void> {
    await this.#early?.ready;
    await this.#pipeFull;
    await this.#usable();
  }

  /** Ends the input and waits until git has stored every blob: only then may a commit name them. */
  finish(): Promise<void> {
    this.#finished ??= (async () => {
      await this.#early?.ready;
      await this.#pipeFull;
      if (this.#closed !== undefined) throw this.#closed;
      const { stdin } = this.#git;
      this.#git.startTimer();
      if (this.#corked) this.#uncork();
      stdin.end('done\n');
      try {
        await this.#git.finish();
      } finally {
        this.#git.close();
      }
    })();
    return this.#finished;
  }

  /** Stops git without storing what was not stored yet (an export that failed or was stopped). */
  close(): void {
    this.#closed ??= new GitError({
      code: 'GIT_ABORTED',
      args: this.#git.args,
      reason: 'was stopped before it was given every blob',
    });
    this.#git.close();
  }

  /** Throws when nothing more can be written: the writer closed, or git gone (as it ended). */
  async #usable(): Promise<void> {
    if (this.#closed !== undefined) throw this.#closed;
    if (this.#git.failed !== undefined) throw this.#git.failed;
    if (!this.#gone) return;
    await this.#git.finish();
    throw new GitError({
      code: 'GIT_FAILED',
      args: this.#git.args,
      reason: 'exited before it was given every blob',
    });
  }

  /** The ids git holds are known: what waited is written, but for those. */
  #release(known: ReadonlySet<string>): void {
    this.#known = known;
    const waited = this.#early?.blobs ?? [];
    this.#early = undefined;
    for (const { blob, data } of waited) if (!known.has(blob)) this.#write(data);
  }

  #write(data: Buffer): void {
    this.#count += 1;
    const { stdin } = this.#git;
    // Nobody reads any more: finish or the next wait tells why.
    if (this.#gone || stdin.destroyed) return;
    // The blobs of one tick (the pages of one chunk of a revision's body) leave in one write.
    if (!this.#corked) {
      this.#corked = true;
      stdin.cork();
      process.nextTick(this.#uncork);
    }
    stdin.write(`blob\ndata ${data.length}\n`);
    stdin.write(data);
    const ready = stdin.write('\n');
    if (!ready && this.#pipeFull === undefined) {
      // git that stops reading is stopped: the time limit runs over each wait for it to read on.
      this.#git.startTimer();
      const read = () => {
        this.#git.stopTimer();
        this.#pipeFull = undefined;
      };
      // A git that died never drains: its end ends the wait too.
      this.#pipeFull = Promise.race([once(stdin, 'drain'), this.#git.ended]).then(read, read);
    }
  }
}
