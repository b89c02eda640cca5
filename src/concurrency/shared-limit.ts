// At most `size` works under way at once, across every caller that shares the limit; the others
// wait their turn, first come first served. mapBounded bounds one caller's items; this bounds many
// callers together (the batch polls running at once in one process).
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

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#active < this.size) this.#active += 1;
    // A turn handed over by a work that ended: the count stays as it was.
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.#waiting.shift();
      if (next === undefined) this.#active -= 1;
      else next();
    }
  }
}
