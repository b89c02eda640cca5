// Keeps the derived mappings of this process up to date with the versions state in Redis. The
// reconcile that made a new branch's space runs in one process (its scheduler ticks once); the
// others learn of the branch here, every git.poll of its branches mapping, so that their workers
// find its mapping. A job that arrives before fails once and runs again on the next poll.
import type { Config } from '../config/config-schema.js';
import type { Logger } from '../log/create-logger.js';
import { derivedMappings, replaceDerivedMappings } from './derived-mappings.js';
import type { VersionStateStore } from './version-state.js';

export class DerivedMappingRefresher {
  readonly #timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly config: Pick<Config, 'mappings' | 'branchMappings'>,
    private readonly store: VersionStateStore,
    private readonly log: Logger,
  ) {}

  start(): void {
    for (const mapping of this.config.branchMappings) {
      const timer = setInterval(() => {
        this.store.get(mapping.name).then(
          (state) => replaceDerivedMappings(this.config.mappings, mapping, derivedMappings(mapping, state)),
          (error: unknown) => this.log.warn({ err: error, mapping: mapping.name }, 'versions state not read'),
        );
      }, mapping.git.poll);
      timer.unref();
      this.#timers.push(timer);
    }
  }

  /** Idempotent. */
  close(): void {
    for (const timer of this.#timers.splice(0)) clearInterval(timer);
  }
}
