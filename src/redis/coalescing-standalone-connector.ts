// ioredis's connector of one server, whose sockets coalesce a tick's writes and keep an error
// listener (prepare-redis-socket.ts). Given to ioredis as its `Connector` option: a standalone
// client's, and a Cluster's through its `redisOptions`, which each node's client and each slot
// refresh's short-lived client are made with. ioredis's index does not export this connector: it is
// read from its file, so that a release that moves it fails docsync's start and every test, not
// silently.
import standaloneConnectorModule from 'ioredis/built/connectors/StandaloneConnector.js';
import { prepareRedisSocket } from './prepare-redis-socket.js';

// Node gives a CommonJS file's exports as its default import (the class is their `default`);
// vitest gives its `default` export itself.
const imported: unknown = standaloneConnectorModule;
const StandaloneConnector = (
  typeof imported === 'function' ? imported : standaloneConnectorModule.default
) as typeof standaloneConnectorModule.default;

type StandaloneOptions = ConstructorParameters<typeof StandaloneConnector>[0];
type ErrorEmitter = Parameters<InstanceType<typeof StandaloneConnector>['connect']>[0];
type NetStream = Awaited<ReturnType<InstanceType<typeof StandaloneConnector>['connect']>>;

export class CoalescingStandaloneConnector extends StandaloneConnector {
  // ioredis gives a custom connector the client's options as they are, untyped.
  constructor(options: unknown) {
    super(options as StandaloneOptions);
  }

  override async connect(eventEmitter: ErrorEmitter): Promise<NetStream> {
    return prepareRedisSocket(await super.connect(eventEmitter));
  }
}
