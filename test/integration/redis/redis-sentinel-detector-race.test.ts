// docsync's connections through Sentinel when the primary moves while they are asking a sentinel
// for it: a failover announced meanwhile, with the sentinel they ask hung, leaves them reconnecting
// until they reach the new primary, never ended for good.
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { expect, it } from 'vitest';
import { RedisConnections } from '../../../src/redis/redis-connections.js';
import { closeAfter } from '../../support/close-after.js';
import { startRedisSentinelSet } from '../../support/redis-sentinel.js';
import { waitFor } from '../../support/wait-for.js';

it('reaches the new primary when a failover is announced while a hung sentinel is asked for the old one', async () => {
  const set = await startRedisSentinelSet({ sentinelCount: 2 });
  const [hung, answering] = set.sentinelServers;
  if (hung === undefined || answering === undefined) throw new Error('expected two sentinels');
  const connections = new RedisConnections(
    { sentinel: { sentinels: [...set.sentinels], name: set.name } },
    pino({ level: 'silent' }),
  );
  closeAfter(() => connections.close());
  const clients = {
    producer: connections.producer(),
    worker: connections.worker(),
    state: connections.state(),
  };
  const oldPrimary = await set.primaryPort();
  const onPrimary = (port: number) =>
    Object.values(clients).every(
      (client) => client.status === 'ready' && (client as Redis).stream?.remotePort === port,
    );
  await waitFor(() => onPrimary(oldPrimary), 'every connection to reach the primary');
  // Each connection watches the sentinels for `+switch-master` (ioredis's failover detector).
  const admin = new Redis({ host: '127.0.0.1', port: answering.port, maxRetriesPerRequest: 1 });
  closeAfter(() => admin.disconnect());
  await waitFor(
    async () =>
      ((await admin.call('CLIENT', 'LIST')) as string).split('\n').filter((line) => / sub=1 /.test(line))
        .length >= 3,
    'the connections to watch the sentinel for a failover',
  );

  // The first sentinel hangs (a paused machine); the connections lose the primary and ask it again.
  hung.pause();
  const primary = new Redis({ host: '127.0.0.1', port: oldPrimary, maxRetriesPerRequest: 1 });
  closeAfter(() => primary.disconnect());
  const listed = (await primary.call('CLIENT', 'LIST')) as string;
  for (const [, id] of listed.matchAll(/^id=(\d+) .* name=docsync:/gm))
    await primary.call('CLIENT', 'KILL', 'ID', id as string);
  await waitFor(
    () => Object.values(clients).every((client) => client.status !== 'ready'),
    'the connections to be lost',
  );
  // The other sentinel fails over and announces it while they still wait on the hung one.
  const newPrimary = await set.failover();

  await waitFor(() => onPrimary(newPrimary), 'every connection to reach the new primary', 30_000).catch(
    (error: unknown) => {
      const seen = Object.entries(clients).map(
        ([role, client]) => `${role} ${client.status} on ${String((client as Redis).stream?.remotePort)}`,
      );
      throw new Error(`${(error as Error).message}: ${seen.join(', ')}; the new primary is ${newPrimary}`);
    },
  );
  await clients.producer.set('after-failover', 'written');
  expect(await clients.state.get('after-failover')).toBe('written');
  hung.resume();
}, 60_000);
