// docsync on a Redis that speaks TLS only (rediss://), trusting the CA of redis.tls.ca and showing
// the client certificate of redis.tls.cert and redis.tls.key, all made in the test with openssl.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import nodeTls, { type TLSSocket } from 'node:tls';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EnvironmentError } from '../../../src/errors/environment-error.js';
import { jobId } from '../../../src/queue/job-id.js';
import { RedisConnections } from '../../../src/redis/redis-connections.js';
import { type RedisTarget, readRedisTarget } from '../../../src/redis/redis-target.js';
import { waitUntilReady } from '../../../src/redis/wait-until-ready.js';
import { doctorRedisFinding } from '../../support/doctor-redis-finding.js';
import { makeTlsFiles, startTlsRedis, type TlsRedis } from '../../support/redis-tls.js';
import { startDaemonOnRedis } from '../../support/start-daemon-on-redis.js';
import { testJob } from '../../support/test-job.js';
import { waitFor } from '../../support/wait-for.js';

const done = new Set<string>();
const note = testJob({
  name: 'note',
  queue: 'maintain',
  payload: z.object({ id: z.string() }),
  async run(_ctx, payload) {
    done.add(payload.id);
    return { result: 'noted' };
  },
});

const tls: TlsRedis = await startTlsRedis();

/**
 * Waits until the clients of `target` give up on a server whose certificate another CA signed, and
 * returns the TLS sockets ioredis made meanwhile, caught as it makes them.
 */
async function refusedSockets(target: RedisTarget | undefined): Promise<TLSSocket[]> {
  const sockets: TLSSocket[] = [];
  const connect = nodeTls.connect;
  nodeTls.connect = ((...args: Parameters<typeof connect>) => {
    const socket = connect(...args);
    sockets.push(socket);
    return socket;
  }) as typeof connect;
  const connections = new RedisConnections(target ?? { url: tls.url }, pino({ level: 'silent' }));
  try {
    await expect(waitUntilReady(connections.producer(), connections.description, 1500)).rejects.toMatchObject(
      { code: 'REDIS_UNREACHABLE' },
    );
  } finally {
    nodeTls.connect = connect;
    await connections.close();
  }
  return sockets;
}

/**
 * A socket whose handshake was refused fails once on docsync's side, then again when the server's
 * alert arrives: ioredis listens for the first error only, and the second must find a listener, or
 * it ends the process.
 */
function expectLaterErrorsIgnored(sockets: readonly TLSSocket[]): void {
  expect(sockets.length).toBeGreaterThan(0);
  for (const socket of sockets) {
    socket.destroy();
    expect(() => socket.emit('error', new Error('alert from the server'))).not.toThrow();
  }
}

const tlsSection = (files: { ca: string; cert: string; key: string }) =>
  `  tls:\n    ca: ${files.ca}\n    cert: ${files.cert}\n    key: ${files.key}\n`;

describe('docsync on Redis over TLS', () => {
  it('runs jobs on a rediss:// server whose certificate the configured CA signed', async () => {
    const { files } = tls;
    const daemon = await startDaemonOnRedis({
      redis: `  url: ${tls.url}\n${tlsSection({ ca: files.ca, cert: files.clientCert, key: files.clientKey })}  prefix: tls-${randomUUID().slice(0, 8)}\n`,
      jobs: [note],
    });
    await daemon.queues.get('maintain').add('note', { id: 'over-tls' }, { jobId: jobId('note', 'over-tls') });
    await waitFor(() => done.has('over-tls'), 'the job to run over TLS');
    expect(daemon.lines.find((line) => line.msg === 'redis connected')).toMatchObject({
      mode: 'standalone',
      redis: tls.url,
    });
  });

  // Over each kind of target, a server whose certificate another CA signed: no connection, and no
  // later error of a refused socket ends the process. A Cluster's clients (each node's, each slot
  // refresh's) and the clients asking the sentinels are made by ioredis itself; the TLS server
  // stands for a sentinel here, the handshake refused before any question.
  it.each([
    ['one server', { url: tls.url }],
    ['a Cluster', { cluster: { nodes: [tls.url] } }],
    ['a sentinel', { sentinel: { sentinels: [tls.url], name: 'mymaster' } }],
  ])(
    'does not connect to %s whose certificate another CA signed, and no later socket error ends the process',
    async (_kind, address) => {
      const other = await makeTlsFiles('other-ca');
      const target = await readRedisTarget(
        {
          ...address,
          prefix: 'x',
          tls: { ca: other.ca, cert: tls.files.clientCert, key: tls.files.clientKey },
        },
        '/',
      );
      expectLaterErrorsIgnored(await refusedSockets(target));
    },
  );

  it('stops at start on a CA file it cannot read, naming the key and the path', async () => {
    const missing = join(tls.files.dir, 'no-such-ca.pem');
    const reading = readRedisTarget({ url: tls.url, prefix: 'x', tls: { ca: missing } }, '/');
    await expect(reading).rejects.toBeInstanceOf(EnvironmentError);
    await expect(reading).rejects.toMatchObject({
      code: 'REDIS_TLS_FILE_UNREADABLE',
      message: expect.stringContaining(`redis.tls.ca: cannot read ${missing} (ENOENT)`),
    });
  });

  it('has docsync doctor say it reached the server, and in which mode', async () => {
    const { files } = tls;
    const section = `  url: ${tls.url}\n${tlsSection({ ca: files.ca, cert: files.clientCert, key: files.clientKey })}`;
    expect(await doctorRedisFinding(section)).toMatchObject({
      status: 'ok',
      message: `${tls.url} answers (one server)`,
    });
  });
});
