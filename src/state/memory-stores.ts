// The stores of a run without Redis (`docsync once`, tests, benchmarks): each in this process's
// memory, gone when it ends.
import { MemoryEventLog } from './memory-event-log.js';
import { MemoryLinkCheckStore } from './memory-link-check-store.js';
import { MemoryMappingStateStore } from './memory-mapping-state-store.js';
import { MemoryOpenApiStateStore } from './memory-openapi-state-store.js';
import { MemoryRepositoryHookStore } from './memory-repository-hook-store.js';
import { MemoryVerdictStore } from './memory-verdict-store.js';
import type { Stores } from './stores.js';

export function memoryStores(now?: () => Date): Stores {
  return {
    mappings: new MemoryMappingStateStore(now),
    links: new MemoryLinkCheckStore(),
    verdicts: new MemoryVerdictStore(),
    openapi: new MemoryOpenApiStateStore(),
    hooks: new MemoryRepositoryHookStore(),
    events: new MemoryEventLog(),
  };
}
