import { describe, expect, it } from 'vitest';
import { CoalescingStandaloneConnector } from '../../../src/redis/coalescing-standalone-connector.js';
import { FailoverSafeSentinelConnector } from '../../../src/redis/failover-safe-sentinel-connector.js';
import { redisClientPlan, SENTINEL_COMMAND_TIMEOUT_MS } from '../../../src/redis/redis-client-plan.js';
import { describeRedisTarget, redisMode } from '../../../src/redis/redis-target.js';

const ROLE = { maxRetriesPerRequest: null, enableOfflineQueue: true };
const TLS = { ca: 'CA PEM', cert: 'CERT PEM', key: 'KEY PEM' };
/** The connector whose sockets coalesce writes and keep an error listener (src/redis/prepare-redis-socket.ts). */
const Connector = CoalescingStandaloneConnector;

describe('the ioredis options of each kind of Redis target', () => {
  it('gives one server its URL, the role options and the TLS files', () => {
    expect(redisClientPlan({ url: 'rediss://:pw@10.0.0.1:6380', tls: TLS }, ROLE)).toEqual({
      kind: 'standalone',
      url: 'rediss://:pw@10.0.0.1:6380',
      options: { ...ROLE, tls: TLS, Connector },
    });
    expect(redisClientPlan({ url: 'redis://10.0.0.1:6379' }, ROLE)).toEqual({
      kind: 'standalone',
      url: 'redis://10.0.0.1:6379',
      options: { ...ROLE, Connector },
    });
  });

  it('gives a cluster its seed nodes, the first URL credentials, and TLS when its nodes say rediss://', () => {
    const plan = redisClientPlan(
      { clusterNodes: ['rediss://user:s%40cret@10.0.0.1:7000', 'rediss://10.0.0.2'], tls: { ca: 'CA PEM' } },
      ROLE,
    );
    expect(plan).toEqual({
      kind: 'cluster',
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: '10.0.0.2', port: 6379 },
      ],
      options: {
        // Each node's client and each slot refresh's are made with the connector.
        redisOptions: { ...ROLE, Connector, username: 'user', password: 's@cret', tls: { ca: 'CA PEM' } },
        ...ROLE,
      },
    });
    const plain = redisClientPlan({ clusterNodes: ['redis://10.0.0.1:7000'] }, ROLE);
    expect(plain.kind === 'cluster' && plain.options.redisOptions).toEqual({ ...ROLE, Connector });
  });

  it('gives Sentinel its sentinels, the primary name and both sets of credentials', () => {
    const plan = redisClientPlan(
      {
        sentinel: {
          sentinels: ['10.0.0.1:26379', 'redis://:sentinel-pw@sentinel-2.internal', 'redis://[::1]:26380'],
          name: 'mymaster',
          password: 'primary-pw',
        },
      },
      ROLE,
    );
    if (plan.kind !== 'sentinel') throw new Error(`expected a sentinel plan, got ${plan.kind}`);
    expect(plan.options).toMatchObject({
      ...ROLE,
      sentinels: [
        { host: '10.0.0.1', port: 26379 },
        { host: 'sentinel-2.internal', port: 26379 },
        { host: '::1', port: 26380 },
      ],
      name: 'mymaster',
      role: 'master',
      password: 'primary-pw',
      sentinelPassword: 'sentinel-pw',
      failoverDetector: true,
      // Its detector goes with its connection, and a hung sentinel is given up on for the next.
      Connector: FailoverSafeSentinelConnector,
      sentinelCommandTimeout: SENTINEL_COMMAND_TIMEOUT_MS,
    });
    expect(plan.options.tls).toBeUndefined();
    expect(plan.options.enableTLSForSentinelMode).toBeUndefined();
    // A demoted primary answers writes with READONLY: reconnect through the sentinels and resend.
    const onError = plan.options.reconnectOnError;
    expect(onError?.(new Error("READONLY You can't write against a read only replica."))).toBe(2);
    expect(onError?.(new Error('ERR unknown command'))).toBe(false);
  });

  it('reaches the failover detector ioredis keeps on its sentinel connector, which it drops with the connection', () => {
    // The field is ioredis's private state: a release that renames it would leave a stale detector
    // again without a word (test/integration/redis/redis-sentinel-detector-race.test.ts shows why).
    const connector = new FailoverSafeSentinelConnector({
      sentinels: [{ host: '127.0.0.1', port: 1 }],
      name: 'n',
    });
    expect('failoverDetector' in connector).toBe(true);
    // And the method its clients to the sentinels are made with, which this connector wraps.
    expect(typeof Object.getPrototypeOf(Object.getPrototypeOf(connector)).connectToSentinel).toBe('function');
  });

  it('turns TLS on for the sentinels and the primary when the sentinels are rediss://', () => {
    const plan = redisClientPlan(
      { sentinel: { sentinels: ['rediss://10.0.0.1:26379'], name: 'mymaster' }, tls: { ca: 'CA PEM' } },
      ROLE,
    );
    expect(plan.kind === 'sentinel' && plan.options).toMatchObject({
      tls: { ca: 'CA PEM' },
      sentinelTLS: { ca: 'CA PEM' },
      enableTLSForSentinelMode: true,
    });
  });

  it('describes each target without its passwords, and names its mode', () => {
    const sentinel = { sentinel: { sentinels: ['redis://:sentinel-pw@10.0.0.1:26379'], name: 'mymaster' } };
    expect(describeRedisTarget(sentinel)).toBe('sentinel mymaster via redis://***@10.0.0.1:26379');
    expect(describeRedisTarget({ clusterNodes: ['redis://:pw@10.0.0.1:7000'] })).toBe(
      'cluster redis://***@10.0.0.1:7000',
    );
    expect(describeRedisTarget({ url: 'rediss://:pw@10.0.0.1:6380' })).toBe('rediss://***@10.0.0.1:6380');
    expect([sentinel, { clusterNodes: [] }, { url: 'redis://x' }].map(redisMode)).toEqual([
      'sentinel',
      'cluster',
      'standalone',
    ]);
  });
});
