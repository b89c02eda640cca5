// Builds dist/ from the current sources for the CLI tests, and starts one private redis-server for
// the integration run, on a free loopback port in a temp folder. It uses docsync's own
// embedded-server code, so that code runs in every test run too. At the end it stops that server
// and fails the run if a redis-server or docsync process the tests started is still alive.
import { randomUUID } from 'node:crypto';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { TestProject } from 'vitest/node';
import { PACKAGE_ROOT } from '../../src/package-info.js';
import { startEmbeddedRedis } from '../../src/redis/embedded-redis-server.js';
import { buildDist } from './build-dist.js';
import { assertNothingLeftOver, TEST_RUN_ENV } from './leftover-processes.js';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Set before anything starts: the workers, the CLI and every redis-server inherit them, and every
  // temp folder of the run is made inside the run's own.
  const run = { id: randomUUID(), dir: await realpath(await mkdtemp(join(tmpdir(), 'docsync-test-run-'))) };
  const tmp = process.env.TMPDIR;
  process.env[TEST_RUN_ENV] = run.id;
  process.env.TMPDIR = run.dir;
  await buildDist(PACKAGE_ROOT);
  const dir = await mkdtemp(join(run.dir, 'docsync-test-redis-'));
  const redis = await startEmbeddedRedis({ dir, log: pino({ level: 'silent' }) });
  project.provide('redisUrl', redis.url);
  return async () => {
    const problems: unknown[] = [];
    const step = (work: Promise<unknown>) => work.catch((error: unknown) => problems.push(error));
    await step(redis.stop());
    await step(rm(dir, { recursive: true, force: true }));
    if (tmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmp;
    await step(assertNothingLeftOver(run));
    await step(rm(run.dir, { recursive: true, force: true }));
    if (problems.length === 0) return;
    // vitest prints an error thrown here but still exits 0: the exit code is set by hand.
    process.exitCode = 1;
    throw problems.length === 1
      ? problems[0]
      : new AggregateError(problems, 'the test run did not end cleanly');
  };
}
