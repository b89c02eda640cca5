// Pulls git's stdout piece by piece (up to a delimiter, or an exact byte count) at the consumer's
// pace, so that the pipe's back-pressure stops git while docsync is busy with what it already has.
import type { GitProcess } from './git-process.js';

export class GitOutputReader {
  private readonly chunks: AsyncIterator<Buffer>;
  private pending: Buffer[] = [];
  /** Bytes of `pending[0]` consumed already: a record taken from it makes no buffer of the rest. */
  private head = 0;
  /** Bytes pending, not counting those consumed. */
  private pendingBytes = 0;
  private ended = false;

  constructor(private readonly git: GitProcess) {
    this.chunks = git.stdout[Symbol.asyncIterator]();
  }

  /**
   * The bytes before the next `delimiter` (which is consumed), or undefined at the end of the output.
   * Output that ends without the delimiter is a GIT_OUTPUT_INVALID failure.
   */
  async readUntil(delimiter: number): Promise<Buffer | undefined> {
    let searchFrom = 0;
    for (;;) {
      const at = this.indexOf(delimiter, searchFrom);
      if (at !== -1) return this.takeThrough(at);
      searchFrom = this.pendingBytes;
      if (!(await this.pull())) {
        if (this.pendingBytes === 0) return undefined;
        throw this.git.fail('GIT_OUTPUT_INVALID', 'ended in the middle of a record');
      }
    }
  }

  /**
   * The bytes before the next `delimiter` (consumed) when they have arrived already, else undefined
   * and nothing consumed: a reader of many small records awaits only where git has not answered yet
   * (`reader.takeUntil(d) ?? (await reader.readUntil(d))`).
   */
  takeUntil(delimiter: number): Buffer | undefined {
    const at = this.indexOf(delimiter, 0);
    return at === -1 ? undefined : this.takeThrough(at);
  }

  /**
   * As takeUntil, the bytes as latin1 text (an object header, an id): a record within one chunk
   * makes a string and no buffer.
   */
  takeLine(delimiter: number): string | undefined {
    const first = this.pending[0];
    if (first === undefined) return undefined;
    const at = first.indexOf(delimiter, this.head);
    if (at === -1) return this.takeUntil(delimiter)?.toString('latin1');
    const line = first.toString('latin1', this.head, at);
    this.skip(at + 1 - this.head);
    return line;
  }

  /** Exactly `size` bytes when they have arrived already, else undefined (see takeUntil). */
  takeExactly(size: number): Buffer | undefined {
    return this.pendingBytes >= size ? this.take(size) : undefined;
  }

  /** Exactly `size` bytes, in one buffer. Output that ends sooner is a GIT_OUTPUT_INVALID failure. */
  async readExactly(size: number): Promise<Buffer> {
    while (this.pendingBytes < size) {
      if (!(await this.pull())) throw this.git.fail('GIT_OUTPUT_INVALID', 'ended in the middle of an object');
    }
    return this.take(size);
  }

  /** Reads one more chunk; false at the end. The time limit runs only while git is awaited. */
  private async pull(): Promise<boolean> {
    if (this.ended) return false;
    this.git.startTimer();
    let next: IteratorResult<Buffer>;
    try {
      next = await this.chunks.next();
    } catch (error) {
      throw this.git.failed ?? error;
    } finally {
      this.git.stopTimer();
    }
    if (this.git.failed !== undefined) throw this.git.failed;
    if (next.done) {
      this.ended = true;
      return false;
    }
    this.pending.push(next.value);
    this.pendingBytes += next.value.length;
    return true;
  }

  /** Where `byte` is, counted in pending bytes from `from`; -1 when it has not arrived. */
  private indexOf(byte: number, from: number): number {
    let offset = -this.head;
    for (const chunk of this.pending) {
      if (from < offset + chunk.length) {
        const at = chunk.indexOf(byte, Math.max(0, from - offset));
        if (at !== -1) return offset + at;
      }
      offset += chunk.length;
    }
    return -1;
  }

  /** The first `size` pending bytes, and the delimiter after them consumed. */
  private takeThrough(size: number): Buffer {
    const token = this.take(size);
    this.skip(1);
    return token;
  }

  /** Removes and returns the first `size` pending bytes; one copy at most. */
  private take(size: number): Buffer {
    const first = this.pending[0];
    if (first !== undefined && first.length - this.head >= size) {
      const token = first.subarray(this.head, this.head + size);
      this.skip(size);
      return token;
    }
    const out = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      const chunk = this.pending[0];
      if (chunk === undefined) break;
      const used = Math.min(chunk.length - this.head, size - filled);
      chunk.copy(out, filled, this.head, this.head + used);
      filled += used;
      this.skip(used);
    }
    return out;
  }

  /** Consumes `size` bytes of the first chunk (at most its rest). */
  private skip(size: number): void {
    const first = this.pending[0];
    if (first === undefined) return;
    const used = Math.min(size, first.length - this.head);
    this.head += used;
    this.pendingBytes -= used;
    if (this.head === first.length) {
      this.pending.shift();
      this.head = 0;
    }
    // A delimiter that opens the next chunk.
    if (used < size) this.skip(size - used);
  }
}
