// The file-watch producer: a mapping with `git.watch` has a local working copy whose saved changes
// under the folder are imported after a quiet period. The quiet period is timed here, in the
// process that sees the saves: once `debounce` passes without one, the import is queued to run at
// once. (A BullMQ delayed job would wait for its promotion too, which rides on a Redis blocking
// timeout that fires up to 1/hz, 100 ms by default, late.) Under the deduplication id
// `watch/<mapping>`, the import replaces a deferred retry of it (jobs/import-content.ts) still
// waiting. The import at start is delayed by one debounce. The working copy is only read.
import { join } from 'node:path';
import type { Queue } from 'bullmq';
import { type FSWatcher, watch } from 'chokidar';
import { importContentKind, worktreeDebounce } from '../../jobs/import-content/import-content-kind.js';
import type { MappingConfig } from '../config/mapping-schema.js';
import type { Logger } from '../log/create-logger.js';
import { throttledErrorLog } from '../log/throttled-error-log.js';

export class WorkingCopyWatcher {
  readonly #watchers: FSWatcher[] = [];
  /** Per mapping, the quiet period under way since its last save. */
  readonly #quiet = new Map<string, NodeJS.Timeout>();
  readonly #queue: Queue;
  readonly #log: Logger;
  #closed = false;

  constructor(queue: Queue, log: Logger) {
    this.#queue = queue;
    this.#log = log;
  }

  async start(mappings: readonly MappingConfig[]): Promise<void> {
    for (const mapping of mappings) {
      const watchConfig = mapping.git.watch;
      if (watchConfig === undefined || mapping.direction === 'space-to-git') continue;
      const folder = join(watchConfig.path, mapping.git.dir);
      const log = this.#log.child({ mapping: mapping.name, folder });
      const watcher = watch(folder, {
        ignoreInitial: true,
        ignored: (path) => /(^|[/\\])\.git([/\\]|$)/.test(path),
      });
      const onError = throttledErrorLog(log, 'working copy watch error');
      watcher.on('error', (error) => onError(error instanceof Error ? error : new Error(String(error))));
      const enqueue = () =>
        this.#enqueue(mapping, watchConfig.path, { deduplication: afterQuietPeriod(mapping.name) }).catch(
          (error: unknown) => log.error({ err: error }, 'working copy import could not be queued'),
        );
      watcher.on('all', (event, path) => {
        log.debug({ event, path }, 'working copy changed');
        this.#restartQuietPeriod(mapping.name, watchConfig.debounce, enqueue);
      });
      await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
      this.#watchers.push(watcher);
      // Saves made while docsync was not running: one import after a quiet period (a no-op when
      // nothing changed), so that the git poll's first import of the branch goes first.
      await this.#enqueue(mapping, watchConfig.path, {
        delay: watchConfig.debounce,
        deduplication: worktreeDebounce(mapping.name, watchConfig.debounce),
      });
      log.info({ debounceMs: watchConfig.debounce }, 'watching working copy');
    }
  }

  /**
   * Stops watching. A quiet period under way is dropped: the next start queues one import of the
   * working copy as it then is.
   */
  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#quiet.values()) clearTimeout(timer);
    this.#quiet.clear();
    await Promise.all(this.#watchers.splice(0).map((watcher) => watcher.close()));
  }

  /** Every save starts the mapping's quiet period again; its end queues the import. */
  #restartQuietPeriod(mapping: string, debounceMs: number, enqueue: () => Promise<void>): void {
    if (this.#closed) return;
    clearTimeout(this.#quiet.get(mapping));
    const timer = setTimeout(() => {
      this.#quiet.delete(mapping);
      void enqueue();
    }, debounceMs);
    // A pending quiet period must not keep a process alive that is otherwise done.
    timer.unref();
    this.#quiet.set(mapping, timer);
  }

  async #enqueue(
    mapping: MappingConfig,
    path: string,
    options: { delay?: number; deduplication: Deduplication },
  ): Promise<void> {
    await importContentKind.enqueue(
      this.#queue,
      { source: 'worktree', mapping: mapping.name, space: mapping.space, path },
      options,
    );
  }
}

type Deduplication = ReturnType<typeof worktreeDebounce>;

/**
 * The deduplication of an import queued at the end of a quiet period: under the working copy's id
 * (`watch/<mapping>`), it replaces a deferred retry of that import still delayed (the save is newer).
 * It holds that id for 1 ms only: the import it queues may run at once and queue its own deferred
 * retry under the id, which an id still held would swallow.
 */
function afterQuietPeriod(mapping: string): Deduplication {
  return { ...worktreeDebounce(mapping, 1), extend: false };
}
