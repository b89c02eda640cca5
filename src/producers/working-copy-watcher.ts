// The file-watch producer: a mapping with `git.watch` has a local working copy whose saved changes
// under the folder are imported after a quiet period. BullMQ's debounce deduplication keeps one
// pending import per mapping, replaced and pushed back by every save. The working copy is only read.
import { join } from 'node:path';
import type { Queue } from 'bullmq';
import { type FSWatcher, watch } from 'chokidar';
import type { MappingConfig } from '../config/mapping-schema.js';
import type { Logger } from '../log/create-logger.js';
import { throttledErrorLog } from '../log/throttled-error-log.js';
import { importContentKind, worktreeDebounce } from '../queue/kinds/import-content-kind.js';

export class WorkingCopyWatcher {
  readonly #watchers: FSWatcher[] = [];
  readonly #queue: Queue;
  readonly #log: Logger;

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
      watcher.on('all', (event, path) => {
        log.debug({ event, path }, 'working copy changed');
        void this.#enqueue(mapping, watchConfig.path, watchConfig.debounce).catch((error: unknown) =>
          log.error({ err: error }, 'working copy import could not be queued'),
        );
      });
      await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
      this.#watchers.push(watcher);
      // Saves made while docsync was not running: one import now (a no-op when nothing changed).
      await this.#enqueue(mapping, watchConfig.path, watchConfig.debounce);
      log.info({ debounceMs: watchConfig.debounce }, 'watching working copy');
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.#watchers.splice(0).map((watcher) => watcher.close()));
  }

  async #enqueue(mapping: MappingConfig, path: string, debounceMs: number): Promise<void> {
    await importContentKind.enqueue(
      this.#queue,
      { source: 'worktree', mapping: mapping.name, space: mapping.space, path },
      { delay: debounceMs, deduplication: worktreeDebounce(mapping.name, debounceMs) },
    );
  }
}
