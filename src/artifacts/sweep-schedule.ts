// The sweep of a bundle store's leftovers, on a schedule: now, then on an interval that does not keep
// the process alive; one sweep at a time, shared by whoever asks while it runs; a failed sweep
// reported and the next one tried in its turn; a close that waits for the sweep under way.

export interface SweepScheduleOptions {
  /** One sweep: returns how many leftovers went. */
  sweepOnce: () => Promise<number>;
  everyMs: number;
  /** A failed scheduled sweep (a direct `sweep()` call gets the error itself). */
  onError: (error: unknown) => void;
}

export class SweepSchedule {
  readonly #options: SweepScheduleOptions;
  #timer: NodeJS.Timeout | undefined;
  #sweeping: Promise<number> | undefined;
  #closing: Promise<void> | undefined;

  constructor(options: SweepScheduleOptions) {
    this.#options = options;
  }

  /** Sweeps now, or joins the sweep under way. */
  sweep(): Promise<number> {
    this.#sweeping ??= this.#options.sweepOnce().finally(() => {
      this.#sweeping = undefined;
    });
    return this.#sweeping;
  }

  start(): void {
    if (this.#timer !== undefined || this.#closing !== undefined) return;
    this.#timer = setInterval(() => void this.#sweepReported(), this.#options.everyMs);
    this.#timer.unref();
    void this.#sweepReported();
  }

  /** Stops the interval and waits for a sweep under way. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      if (this.#timer !== undefined) clearInterval(this.#timer);
      this.#timer = undefined;
      await this.#sweeping?.catch(() => undefined);
    })();
    return this.#closing;
  }

  async #sweepReported(): Promise<void> {
    try {
      await this.sweep();
    } catch (error) {
      this.#options.onError(error);
    }
  }
}
