// Every store of what docsync remembers between jobs, as jobs see them: built once per process
// (in Redis for the daemon, in memory for `docsync once`, tests and benchmarks) and passed in.
import type { EventLog } from './event-log.js';
import type { LinkCheckStore } from './link-check-store.js';
import type { MappingStateStore } from './mapping-state.js';
import type { OpenApiStateStore } from './openapi-state-store.js';
import type { RepositoryHookStore } from './repository-hooks.js';
import type { VerdictStore } from './verdict-store.js';

export interface Stores {
  mappings: MappingStateStore;
  links: LinkCheckStore;
  verdicts: VerdictStore;
  openapi: OpenApiStateStore;
  events: EventLog;
  /** Push webhooks per repository: how often its scheduled polls look (jobs/poll-git/). */
  hooks: RepositoryHookStore;
}
