// The abort of one job run: aborted by the runner's stop signal or a lost lock, its AbortSignal made
// only when the processor reads `ctx.signal`. Most runs never abort, and a no-op job never reads it:
// an AbortSignal (an EventTarget) cost more than the rest of the runner's own work per job.
import { setMaxListeners } from 'node:events';

/**
 * Listeners a job's signal takes without Node's leak warning: every call a job has in flight listens
 * to it (a batch poll: 8 spaces at once, each reading 4 change requests' facts at once, each with
 * calls of its own), far more than the 10 of any EventTarget. A listener left behind after its call
 * still shows, once thousands pile up.
 */
export const JOB_SIGNAL_MAX_LISTENERS = 1000;

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
      setMaxListeners(JOB_SIGNAL_MAX_LISTENERS, this.#controller.signal);
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }
}
