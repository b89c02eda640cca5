// Runs the checks' I/O: a few at a time (each may start a git process or a request), each with its
// own time limit, all stopped by one signal. A check that ignores its signal is still given up on
// at its limit, so one stuck remote never holds the report back.
import { linkedAbort } from '../lifecycle/linked-abort.js';

export interface CheckRunnerOptions {
  /** The limit of one check's work, from the moment it gets a slot. */
  timeoutMs: number;
  /** How many checks run at once. */
  concurrency: number;
  /** Stops every check (docsync start shutting down). */
  signal?: AbortSignal | undefined;
}

export class CheckTimeoutError extends Error {
  readonly code = 'CHECK_TIMEOUT';

  constructor(readonly timeoutMs: number) {
    super(`did not finish within ${formatSeconds(timeoutMs)}`);
    this.name = 'CheckTimeoutError';
  }
}

export type Attempt<T> = { ok: true; value: T } | { ok: false; error: unknown };

export class CheckRunner {
  readonly timeoutMs: number;
  readonly #concurrency: number;
  readonly #signal: AbortSignal | undefined;
  #running = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(options: CheckRunnerOptions) {
    this.timeoutMs = options.timeoutMs;
    this.#concurrency = Math.max(1, options.concurrency);
    this.#signal = options.signal;
  }

  /** Runs `work` in a free slot under the time limit: its value, or what it (or the limit) threw. */
  async attempt<T>(work: (signal: AbortSignal) => Promise<T>): Promise<Attempt<T>> {
    await this.#slot();
    if (this.#signal?.aborted === true) {
      this.#release();
      return { ok: false, error: this.#signal.reason };
    }
    const timeout = new AbortController();
    const linked = linkedAbort([...(this.#signal === undefined ? [] : [this.#signal]), timeout.signal]);
    let timer: NodeJS.Timeout | undefined;
    try {
      const limit = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => {
          const error = new CheckTimeoutError(this.timeoutMs);
          timeout.abort(error);
          reject(error);
        }, this.timeoutMs);
      });
      const value = await Promise.race([work(linked.signal), limit]);
      return { ok: true, value };
    } catch (error) {
      return { ok: false, error: timeout.signal.aborted ? timeout.signal.reason : error };
    } finally {
      clearTimeout(timer);
      linked.dispose();
      this.#release();
    }
  }

  async #slot(): Promise<void> {
    if (this.#running < this.#concurrency) {
      this.#running += 1;
      return;
    }
    // The slot is handed over by #release: the count stays as it is.
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next === undefined) this.#running -= 1;
    else next();
  }
}

export function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}
