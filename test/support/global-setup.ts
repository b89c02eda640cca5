// Starts one private redis-server for the integration run, on a free loopback port in a temp
// folder, and stops it afterwards. It uses docsync's own embedded-server code, so that code runs in
// every test run too.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { TestProject } from 'vitest/node';
import { startEmbeddedRedis } from '../../src/redis/embedded-redis-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'docsync-test-redis-'));
  const redis = await startEmbeddedRedis({ dir, log: pino({ level: 'silent' }) });
  project.provide('redisUrl', redis.url);
  return async () => {
    await redis.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
