// Lets long synchronous work share the event loop: between small steps, `due()` says when a slice
// is used up and `pause()` yields (setImmediate), so that health checks, lock renewals and sockets
// are served while a large spec is fingerprinted.
import { setImmediate as nextTurn } from 'node:timers/promises';

/** How long work runs before it yields: well under the 100 ms a health check may wait. */
export const SLICE_MS = 20;

export interface EventLoopSlicer {
  due(): boolean;
  pause(): Promise<void>;
}

export function eventLoopSlicer(signal?: AbortSignal, sliceMs = SLICE_MS): EventLoopSlicer {
  let started = performance.now();
  return {
    due: () => performance.now() - started >= sliceMs,
    pause: async () => {
      await nextTurn();
      signal?.throwIfAborted();
      started = performance.now();
    },
  };
}
