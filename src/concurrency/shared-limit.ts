// At most `size` works under way at once, across every caller that shares the limit; the others
// wait their turn, first come first served, and one whose signal fires leaves the line at once.
// mapBounded bounds one caller's items; this bounds many callers together (the batch polls running
// at once in one process, the requests to the service waiting for a connection and a token).
export class SharedLimit {
  readonly size: number;
  #active = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(size: number) {
    this.size = Math.max(1, size);
  }

  /** Works under way now. */
  get active(): number {
    return this.#active;
  }

  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.#active < this.size) this.#active += 1;
    // A turn handed over by a work that ended: the count stays as it was.
    else await this.#turn(signal);
    try {
      return await work();
    } finally {
      const next = this.#waiting.shift();
      if (next === undefined) this.#active -= 1;
      else next();
    }
  }

  #turn(signal: AbortSignal | undefined): Promise<void> {
    if (signal === undefined) return new Promise<void>((resolve) => this.#waiting.push(resolve));
    signal.throwIfAborted();
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const index = this.#waiting.indexOf(go);
        if (index !== -1) this.#waiting.splice(index, 1);
        reject(signal.reason);
      };
      const go = () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(go);
    });
  }
}
