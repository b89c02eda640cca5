// The abort of one job run: aborted by the runner's stop signal or a lost lock, its AbortSignal made
// only when the processor reads `ctx.signal`. Most runs never abort, and a no-op job never reads it:
// an AbortSignal (an EventTarget) cost more than the rest of the runner's own work per job.
export class JobAbort {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;

  /** Idempotent: the first reason stays. */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  /** The run's signal, aborted already when the run was. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }
}
