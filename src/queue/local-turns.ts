// The space locks this process holds, and per lock the one job of this process that waits for it
// in its slot. A job whose lock a job of this same process holds does not ask Redis (it would only
// hear "busy", then pay a move to BullMQ's delayed set and a back-off): it waits here for that
// holder to end, for at most `maxWaitMs`, then asks Redis. Its take goes out with the holder's
// release, in one script call that releases first (space-locks.ts): the lock passes between the
// two jobs without a round trip of its own, and without a moment free for another process to
// take it. Redis stays the only judge of who holds a lock: a job runs only once Redis gave it the
// lock, so jobs of one key never overlap, here or across processes, and a lock of a process that
// died expires as any other. At most one job per lock waits here, for a short while, so that jobs
// of one busy space never fill this process's slots: the others take the delayed path.

/** A lock held here: whether a job of this process waits for it, and how to let that job go on. */
interface Turn {
  next: (() => void) | undefined;
}

export class LocalTurns {
  readonly #held = new Map<string, Turn>();
  readonly #maxWaitMs: number;

  constructor(maxWaitMs: number) {
    this.#maxWaitMs = maxWaitMs;
  }

  /** A job of this process was given `key` by Redis. */
  holding(key: string): void {
    if (!this.#held.has(key)) this.#held.set(key, { next: undefined });
  }

  /** The job holding `key` here gave it up: the job waiting for it here, if any, goes on (true). */
  released(key: string): boolean {
    const turn = this.#held.get(key);
    this.#held.delete(key);
    const next = turn?.next;
    if (next === undefined) return false;
    next();
    return true;
  }

  /** Whether a job of this process waits here for `key`. */
  waiting(key: string): boolean {
    return this.#held.get(key)?.next !== undefined;
  }

  /**
   * When a job of this process holds `key` and none waits for it here yet: a promise that resolves
   * once that job gives it up, or after maxWaitMs. Undefined otherwise: ask Redis now.
   */
  wait(key: string): Promise<void> | undefined {
    const turn = this.#held.get(key);
    if (turn === undefined || turn.next !== undefined) return undefined;
    return new Promise<void>((resolve) => {
      const go = () => {
        clearTimeout(timer);
        if (turn.next === go) turn.next = undefined;
        resolve();
      };
      const timer = setTimeout(go, this.#maxWaitMs);
      turn.next = go;
    });
  }
}
