// The one place Redis clients are made. Workers get a connection that waits through reconnects
// (BullMQ requires `maxRetriesPerRequest: null` for them), and jobs' state reads and writes one of
// their own that does too; producers, status reads and HTTP handlers get one that fails fast, so a
// request never hangs on a Redis that is down.
import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '../log/create-logger.js';
import { throttledErrorLog } from '../log/throttled-error-log.js';
import { redisClientPlan } from './redis-client-plan.js';
import { describeRedisTarget, type RedisMode, type RedisTarget, redisMode } from './redis-target.js';

export type { RedisTarget } from './redis-target.js';
export type RedisClient = Redis | Cluster;

type Role = 'worker' | 'producer' | 'state';

// ioredis arms a `disconnectTimeout` timer (2 s by default) when it disconnects a socket that
// already failed, and never clears it: with Redis down, that timer alone held a finished
// shutdown open for 2 s. Healthy connections close with QUIT, so a short timeout costs nothing.
const DISCONNECT_TIMEOUT_MS = 100;

const ROLE_OPTIONS: Record<Role, RedisOptions> = {
  worker: { maxRetriesPerRequest: null, enableOfflineQueue: true },
  producer: { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 5000 },
  // docsync's own state, read and written by many jobs at once: the commands of one turn of the
  // event loop leave in one write (a write is a system call, dearer than the command on a busy
  // machine). Not for BullMQ's connections: its scripts rely on the order of their calls, which a
  // transaction sent beside auto-pipelined commands does not keep.
  state: { maxRetriesPerRequest: null, enableOfflineQueue: true, enableAutoPipelining: true },
};

export class RedisConnections {
  readonly #target: RedisTarget;
  readonly #log: Logger;
  readonly #clients = new Map<Role, RedisClient>();
  #closing: Promise<void> | undefined;

  constructor(target: RedisTarget, log: Logger) {
    this.#target = target;
    this.#log = log;
  }

  /** The address with any password hidden, for logs and errors. */
  get description(): string {
    return describeRedisTarget(this.#target);
  }

  /** One server, a Cluster, or a primary found through Sentinel. */
  get mode(): RedisMode {
    return redisMode(this.#target);
  }

  get isCluster(): boolean {
    return this.mode === 'cluster';
  }

  /** The shared connection for BullMQ workers and locks: commands wait while Redis reconnects. */
  worker(): RedisClient {
    return this.#get('worker');
  }

  /** The shared connection for jobs' reads and writes of docsync's state: commands wait while Redis reconnects. */
  state(): RedisClient {
    return this.#get('state');
  }

  /** The shared connection for queues, status and HTTP handlers: commands fail fast when Redis is away. */
  producer(): RedisClient {
    return this.#get('producer');
  }

  /** Closes every client made here; safe to call more than once. */
  close(): Promise<void> {
    this.#closing ??= Promise.all(
      [...this.#clients.entries()].map(async ([role, client]) => {
        try {
          if (client.status !== 'ready') {
            client.disconnect();
            return;
          }
          await client.quit();
        } catch (error) {
          this.#log.debug({ role, err: error }, 'redis quit failed, disconnecting');
          client.disconnect();
        }
      }),
    ).then(() => undefined);
    return this.#closing;
  }

  #get(role: Role): RedisClient {
    let client = this.#clients.get(role);
    if (client === undefined) {
      client = this.#create(role);
      this.#clients.set(role, client);
    }
    return client;
  }

  #create(role: Role): RedisClient {
    const options: RedisOptions = {
      ...ROLE_OPTIONS[role],
      connectionName: `docsync:${role}`,
      disconnectTimeout: DISCONNECT_TIMEOUT_MS,
    };
    const plan = redisClientPlan(this.#target, options);
    const client =
      plan.kind === 'cluster'
        ? new Cluster(plan.nodes, plan.options)
        : plan.kind === 'standalone'
          ? new Redis(plan.url, plan.options)
          : new Redis(plan.options);
    client.on('error', throttledErrorLog(this.#log.child({ role }), 'redis connection error'));
    return client;
  }
}
