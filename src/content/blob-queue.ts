// The blobs of one opened folder (GitMirror.openFolder) as they become known: a reader asks for
// `.gitbook.yaml`, then the summary, then a plan's entries, and each comes back in the order asked,
// from the one stream of blobs the folder's git process gives.
import type { BlobData, FolderObjects } from '../git/git-mirror.js';

/**
 * One stream of blobs for a whole folder (the git process that listed it), started at the first
 * blob asked for: ids are handed to git as they become known, and the contents come back in the
 * order asked. `closed`: no more ids will be asked. `abandon` closes the folder.
 */
export class BlobQueue {
  private readonly waiting: string[] = [];
  private closed = false;
  private wake: (() => void) | undefined;
  private reader: AsyncIterator<BlobData> | undefined;

  constructor(private readonly folder: FolderObjects) {}

  /** Asks for these blobs; their contents come from `next`, in order. */
  ask(ids: Iterable<string>): void {
    // One at a time: spread as arguments, the ids of a large folder would pass the stack's limit.
    for (const id of ids) this.waiting.push(id);
    this.wake?.();
  }

  /**
   * Asks for these blobs, the last: git's input ends after them. Asked before any other (no
   * `.gitbook.yaml`, no summary), they go to git as one list, which git answers in buffered writes
   * (see readBlobContents).
   */
  askLast(ids: Iterable<string>): void {
    this.closed = true;
    this.ask(ids);
  }

  async read(id: string): Promise<Buffer> {
    this.ask([id]);
    return this.next();
  }

  /**
   * `count` contents in the order asked, then git's exit checked. A plain iterator: an async
   * generator around `next` would add a round of promises to every file.
   */
  contents(count: number): AsyncIterable<Buffer> {
    let left = count;
    const iterator: AsyncIterator<Buffer> = {
      next: async () => {
        if (left === 0) {
          await this.end();
          return { done: true, value: undefined };
        }
        left -= 1;
        return { done: false, value: await this.next() };
      },
    };
    return { [Symbol.asyncIterator]: () => iterator };
  }

  /** No more blobs to ask for: git's exit is checked once it answered all. */
  private async end(): Promise<void> {
    this.closed = true;
    this.wake?.();
    if (this.reader === undefined) return;
    // abandon stops git if this fails.
    if (!(await this.reader.next()).done) throw new Error('git answered more blobs than asked');
    this.reader = undefined;
  }

  /** Stops git if it still runs (a refusal, a failure); safe when done, or twice. */
  async abandon(): Promise<void> {
    this.closed = true;
    this.wake?.();
    const reader = this.reader;
    this.reader = undefined;
    await reader?.return?.();
    this.folder.close();
  }

  private async next(): Promise<Buffer> {
    this.reader ??= this.folder
      .readBlobs(this.closed ? this.waiting.splice(0) : this.ids())
      [Symbol.asyncIterator]();
    const next = await this.reader.next();
    if (next.done) throw new Error('git answered fewer blobs than asked');
    return next.value.data;
  }

  private async *ids(): AsyncGenerator<string> {
    for (;;) {
      while (this.waiting.length === 0 && !this.closed) {
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
      }
      if (this.waiting.length === 0) return;
      yield* this.waiting.splice(0);
    }
  }
}
