// ioredis's Sentinel connector with one race closed. Its failover detector (a subscription to
// `+switch-master` on the sentinels) is made when a connection to the primary is established, and
// outlived that connection: when the primary died, the client went on asking the sentinels for it,
// and a `+switch-master` announced while one of those questions was under way aborted it, after
// which ioredis ends the client for good (status `end`, no further reconnect). Here a connection's
// detector goes when the connection closes. A reconnect asks the sentinels anyway, so nothing it
// announced is missed, and the next connection brings its own detector. Its sockets, the primary's
// and those of the clients it makes to ask the sentinels and to hear their announcements, coalesce a
// tick's writes and keep an error listener (prepare-redis-socket.ts).
import { type SentinelConnectionOptions, SentinelConnector } from 'ioredis';
import { CoalescingStandaloneConnector } from './coalescing-standalone-connector.js';
import { prepareRedisSocket } from './prepare-redis-socket.js';

type ErrorEmitter = Parameters<SentinelConnector['connect']>[0];
type NetStream = Awaited<ReturnType<SentinelConnector['connect']>>;

/**
 * What this connector reaches of ioredis's private state: its presence is checked by
 * test/unit/redis/redis-client-plan.test.ts, the race by redis-sentinel-detector-race.test.ts, and
 * the sentinels' clients' sockets by redis-tls.test.ts.
 */
interface DetectorHolder {
  failoverDetector?: { cleanup(): void } | null;
}

/** The method ioredis makes a client to one sentinel with: the options given come last. */
interface SentinelClientMaker {
  connectToSentinel(endpoint: unknown, options?: Record<string, unknown>): unknown;
}

export class FailoverSafeSentinelConnector extends SentinelConnector {
  // ioredis gives a custom connector the client's options as they are, untyped.
  constructor(options: unknown) {
    super(options as SentinelConnectionOptions);
    const maker = this as unknown as SentinelClientMaker;
    const connectToSentinel = maker.connectToSentinel.bind(this);
    maker.connectToSentinel = (endpoint, given) =>
      connectToSentinel(endpoint, { Connector: CoalescingStandaloneConnector, ...given });
  }

  override async connect(eventEmitter: ErrorEmitter): Promise<NetStream> {
    const stream = await super.connect(eventEmitter);
    stream.once('close', () => this.#dropDetector());
    return prepareRedisSocket(stream);
  }

  #dropDetector(): void {
    const holder = this as unknown as DetectorHolder;
    holder.failoverDetector?.cleanup();
    holder.failoverDetector = null;
  }
}
