// What every store of docsync's state in Redis shares: the client, keys under `<prefix>:state:`,
// and reading back a stored text that a person or an older docsync may have left as something else.
import type { RedisClient } from '../redis/redis-connections.js';

export abstract class RedisStateStore {
  protected readonly redis: RedisClient;
  readonly #prefix: string;

  constructor(redis: RedisClient, prefix: string) {
    this.redis = redis;
    this.#prefix = prefix;
  }

  /** `<prefix>:state:<part>:<part>...` */
  protected stateKey(...parts: readonly string[]): string {
    return `${this.#prefix}:state:${parts.join(':')}`;
  }
}

/** The stored text as JSON; undefined when it is not JSON, for the record's schema to refuse. */
export function parseStoredJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
