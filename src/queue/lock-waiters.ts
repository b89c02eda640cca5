// The jobs of this process that found their lock busy and wait in BullMQ's delayed set for their
// retry. When this process releases that lock, the one that has waited longest is promoted at once
// instead of waiting out its back-off: a writer behind another writer starts when the space is free,
// not up to twice that writer's run later, and without BullMQ's promotion of a due delayed job,
// which rides on a Redis blocking timeout that fires up to 1/hz (100 ms by default) late. Waiters in
// other processes keep their back-off (busy-delay.ts).

/** A job waiting for a lock: its id, when its retry is due, and how to start it now. */
export interface LockWaiter {
  id: string;
  /** When BullMQ runs it anyway (ms since the epoch). */
  dueAt: number;
  /** Moves it from delayed to waiting; rejects when it is no longer delayed. */
  promote(): Promise<void>;
}

export class LockWaiters {
  /** Per lock key, its waiters in the order they found it busy. */
  readonly #byKey = new Map<string, LockWaiter[]>();
  /** The key each waiting job waits for: forgetting a job looks at its key only. */
  readonly #keyOfJob = new Map<string, string>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** `waiter` found `key` busy and is being delayed until `waiter.dueAt`. */
  add(key: string, waiter: LockWaiter): void {
    this.forget(waiter.id);
    this.#dropDue();
    const waiters = this.#byKey.get(key) ?? [];
    waiters.push(waiter);
    this.#byKey.set(key, waiters);
    this.#keyOfJob.set(waiter.id, key);
  }

  /** The job `id` runs again (here), or is no longer to be woken: it waits for nothing now. */
  forget(id: string): void {
    if (this.#keyOfJob.size === 0) return;
    const key = this.#keyOfJob.get(id);
    if (key === undefined) return;
    this.#keyOfJob.delete(id);
    const waiters = this.#byKey.get(key);
    if (waiters === undefined) return;
    const left = waiters.filter((waiter) => waiter.id !== id);
    if (left.length === 0) this.#byKey.delete(key);
    else this.#byKey.set(key, left);
  }

  /** Waiters whose retry is due run by themselves (here or in another process): none is kept for long. */
  #dropDue(): void {
    const now = this.#now();
    for (const [key, waiters] of this.#byKey) {
      const left = waiters.filter((waiter) => waiter.dueAt > now);
      for (const waiter of waiters) if (waiter.dueAt <= now) this.#keyOfJob.delete(waiter.id);
      if (left.length === 0) this.#byKey.delete(key);
      else if (left.length !== waiters.length) this.#byKey.set(key, left);
    }
  }

  /** How many jobs wait for `key`. */
  count(key: string): number {
    return this.#byKey.get(key)?.length ?? 0;
  }

  /**
   * `key` was released: promotes its longest waiter still delayed, and returns its id. Waiters
   * whose retry is already due, or that are no longer delayed (another process ran them), are
   * dropped on the way. Never rejects.
   */
  async wakeNext(key: string): Promise<string | undefined> {
    const waiters = this.#byKey.get(key);
    while (waiters !== undefined && waiters.length > 0) {
      const waiter = waiters.shift();
      if (waiters.length === 0) this.#byKey.delete(key);
      if (waiter === undefined) continue;
      this.#keyOfJob.delete(waiter.id);
      if (waiter.dueAt <= this.#now()) continue;
      try {
        await waiter.promote();
        return waiter.id;
      } catch {
        // Not delayed any more: it runs, or ran, without our help.
      }
    }
    return undefined;
  }
}
