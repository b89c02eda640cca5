import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { EnvironmentError } from '../../../src/errors/environment-error.js';
import { checkRedisServer } from '../../../src/redis/check-redis-server.js';
import { startEmbeddedRedis } from '../../../src/redis/embedded-redis-server.js';
import type { RedisClient } from '../../../src/redis/redis-connections.js';
import { captureLog, tempDir } from '../../support/test-context.js';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function withClient<T>(url: string, use: (client: Redis) => Promise<T>): Promise<T> {
  const client = new Redis(url);
  try {
    return await use(client);
  } finally {
    await client.quit();
  }
}

describe('the embedded redis-server', () => {
  it('runs on a free loopback port, keeps data across restarts, and stops', async () => {
    const dir = await tempDir('embedded');
    const { log } = captureLog();
    const first = await startEmbeddedRedis({ dir, log });
    expect(first.url).toMatch(/^redis:\/\/127\.0\.0\.1:\d+$/);
    await withClient(first.url, (client) => client.set('docsync-test-key', 'kept'));
    await first.stop();
    expect(isAlive(first.pid)).toBe(false);
    expect(existsSync(join(dir, 'docsync.lock'))).toBe(false);
    expect(existsSync(join(dir, 'appendonlydir'))).toBe(true);

    const second = await startEmbeddedRedis({ dir, log });
    expect(await withClient(second.url, (client) => client.get('docsync-test-key'))).toBe('kept');
    await second.stop();
  });

  it('starts empty when asked to (the demo), dropping only its own files', async () => {
    const dir = await tempDir('embedded-fresh');
    const { log } = captureLog();
    const first = await startEmbeddedRedis({ dir, log });
    await withClient(first.url, (client) => client.set('docsync-test-key', 'old'));
    await first.stop();
    await writeFile(join(dir, 'notes.txt'), 'not Redis');
    const fresh = await startEmbeddedRedis({ dir, log, fresh: true });
    expect(await withClient(fresh.url, (client) => client.dbsize())).toBe(0);
    await fresh.stop();
    expect(existsSync(join(dir, 'notes.txt'))).toBe(true);
  });

  it('refuses a data folder another running docsync uses', async () => {
    const dir = await tempDir('embedded-busy');
    const { log } = captureLog();
    const running = await startEmbeddedRedis({ dir, log });
    try {
      await expect(startEmbeddedRedis({ dir, log })).rejects.toMatchObject({ code: 'DATA_DIR_BUSY' });
    } finally {
      await running.stop();
    }
  });

  it('stops a server left behind by a docsync that was killed, then starts', async () => {
    const dir = await tempDir('embedded-orphan');
    const { log, lines } = captureLog();
    const orphan = await startEmbeddedRedis({ dir, log });
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid;
    await writeFile(
      join(dir, 'docsync.lock'),
      JSON.stringify({ pid: deadPid, redisPid: orphan.pid, port: orphan.port }),
    );
    const next = await startEmbeddedRedis({ dir, log });
    expect(isAlive(orphan.pid)).toBe(false);
    expect(
      lines.some(
        (line) => line.msg === 'stopping a redis-server left behind by a docsync that did not shut down',
      ),
    ).toBe(true);
    await next.stop();
    await orphan.stop();
  });

  it('says how to install redis-server when it is not on PATH', async () => {
    const dir = await tempDir('embedded-missing');
    const error = await startEmbeddedRedis({
      dir,
      log: captureLog().log,
      binary: 'redis-server-not-installed',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EnvironmentError);
    expect(error).toMatchObject({ code: 'REDIS_SERVER_MISSING' });
    expect((error as Error).message).toMatch(/apt-get install redis-server.*REDIS_URL/);
    expect(existsSync(join(dir, 'docsync.lock'))).toBe(false);
  });
});

describe('checkRedisServer', () => {
  it('warns when maxmemory-policy lets Redis evict queued jobs', async () => {
    const dir = await tempDir('policy');
    const server = await startEmbeddedRedis({ dir, log: captureLog().log });
    try {
      await withClient(server.url, async (client) => {
        const quiet = captureLog();
        const [facts] = await checkRedisServer(client, quiet.log);
        expect(facts?.maxmemoryPolicy).toBe('noeviction');
        expect(quiet.lines).toEqual([]);

        await client.config('SET', 'maxmemory-policy', 'allkeys-lru');
        const warned = captureLog();
        await checkRedisServer(client, warned.log);
        expect(warned.lines).toEqual([
          expect.objectContaining({
            level: 'warn',
            maxmemoryPolicy: 'allkeys-lru',
            msg: 'redis maxmemory-policy can evict queued jobs: set it to noeviction',
          }),
        ]);
      });
    } finally {
      await server.stop();
    }
  });

  it('refuses a Redis older than 6.2', async () => {
    const old = {
      info: async (section: string) =>
        section === 'server' ? 'redis_version:6.0.16\r\n' : 'maxmemory_policy:noeviction\r\n',
    };
    await expect(checkRedisServer(old as unknown as RedisClient, captureLog().log)).rejects.toMatchObject({
      code: 'REDIS_TOO_OLD',
      message: 'Redis 6.0.16 is too old: docsync needs Redis 6.2.0 or newer',
    });
  });
});
