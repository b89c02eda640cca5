// Pulls git's stdout piece by piece (up to a delimiter, or an exact byte count) at the consumer's
// pace, so that the pipe's back-pressure stops git while docsync is busy with what it already has.
import type { GitProcess } from './git-process.js';

export class GitOutputReader {
  private readonly chunks: AsyncIterator<Buffer>;
  private pending: Buffer[] = [];
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
      if (at !== -1) {
        const token = this.take(at);
        this.take(1);
        return token;
      }
      searchFrom = this.pendingBytes;
      if (!(await this.pull())) {
        if (this.pendingBytes === 0) return undefined;
        throw this.git.fail('GIT_OUTPUT_INVALID', 'ended in the middle of a record');
      }
    }
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

  private indexOf(byte: number, from: number): number {
    let offset = 0;
    for (const chunk of this.pending) {
      if (from < offset + chunk.length) {
        const at = chunk.indexOf(byte, Math.max(0, from - offset));
        if (at !== -1) return offset + at;
      }
      offset += chunk.length;
    }
    return -1;
  }

  /** Removes and returns the first `size` pending bytes; one copy at most. */
  private take(size: number): Buffer {
    const first = this.pending[0];
    if (first !== undefined && first.length >= size) {
      const head = first.subarray(0, size);
      if (first.length === size) this.pending.shift();
      else this.pending[0] = first.subarray(size);
      this.pendingBytes -= size;
      return head;
    }
    const out = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      const chunk = this.pending[0];
      if (chunk === undefined) break;
      const used = Math.min(chunk.length, size - filled);
      chunk.copy(out, filled, 0, used);
      filled += used;
      if (used === chunk.length) this.pending.shift();
      else this.pending[0] = chunk.subarray(used);
    }
    this.pendingBytes -= size;
    return out;
  }
}
