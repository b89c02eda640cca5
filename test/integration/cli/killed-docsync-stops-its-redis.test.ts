import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { type CliRun, cliEnv, startCli } from '../../support/cli-process.js';
import { processEnded } from '../../support/process-ended.js';
import { tempDir } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

/** The point of the watchdog: a killed docsync leaves no redis-server running for longer than this. */
const REDIS_GONE_WITHIN_MS = 5000;

async function startWithEmbeddedRedis(label: string): Promise<CliRun> {
  const dir = await tempDir(label);
  const config = join(dir, 'docsync.yaml');
  await writeFile(config, `dataDir: ${join(dir, 'data')}\nhttp:\n  listen: 127.0.0.1:0\n`);
  const run = startCli(['start', '--config', config], { env: cliEnv() });
  await run.waitForLog('docsync started', 30_000);
  return run;
}

function pidLogged(run: CliRun, msg: string, field: string): number[] {
  return run
    .lines()
    .filter((line) => line.msg === msg)
    .map((line) => line[field] as number);
}

async function answersPing(port: number): Promise<boolean> {
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } finally {
    client.disconnect();
  }
}

describe('a docsync killed with SIGKILL', () => {
  it('does not leave its embedded redis-server running', async () => {
    const run = await startWithEmbeddedRedis('sigkill-redis');
    const [redisPid] = pidLogged(run, 'embedded redis-server started', 'redisPid');
    const [watchdogPid] = pidLogged(run, 'redis watchdog started', 'watchdogPid');
    expect(redisPid).toBeTypeOf('number');
    expect(watchdogPid).toBeTypeOf('number');
    expect(processEnded(redisPid as number)).toBe(false);

    run.child.kill('SIGKILL');
    expect(await run.exited).toEqual({ code: null, signal: 'SIGKILL' });
    await waitFor(() => processEnded(redisPid as number), 'the redis-server to exit', REDIS_GONE_WITHIN_MS);
    // The watchdog does not stay behind either.
    await waitFor(() => processEnded(watchdogPid as number), 'the watchdog to exit', REDIS_GONE_WITHIN_MS);
  });

  it('still stops its redis-server after its watchdog alone was killed and replaced', async () => {
    const run = await startWithEmbeddedRedis('sigkill-watchdog');
    const [redisPid] = pidLogged(run, 'embedded redis-server started', 'redisPid');
    const port = run.lines().find((line) => line.msg === 'embedded redis-server started')?.port as number;
    const [first] = pidLogged(run, 'redis watchdog started', 'watchdogPid');

    // Killing the watchdog on its own touches neither docsync nor its Redis: docsync starts another.
    process.kill(first as number, 'SIGKILL');
    await run.waitForLog('redis watchdog exited unexpectedly, starting another');
    const second = await waitFor(
      () => pidLogged(run, 'redis watchdog started', 'watchdogPid')[1],
      'a second watchdog',
    );
    expect(second).not.toBe(first);
    expect(await answersPing(port)).toBe(true);
    expect(run.child.exitCode).toBeNull();

    run.child.kill('SIGKILL');
    await run.exited;
    await waitFor(() => processEnded(redisPid as number), 'the redis-server to exit', REDIS_GONE_WITHIN_MS);
    await waitFor(() => processEnded(second), 'the second watchdog to exit', REDIS_GONE_WITHIN_MS);
  });
});

describe('a docsync that shuts down normally', () => {
  it('stops its redis-server itself and leaves no watchdog behind', async () => {
    const run = await startWithEmbeddedRedis('sigterm-redis');
    const [redisPid] = pidLogged(run, 'embedded redis-server started', 'redisPid');
    const [watchdogPid] = pidLogged(run, 'redis watchdog started', 'watchdogPid');
    expect(processEnded(watchdogPid as number)).toBe(false);

    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual({ code: 0, signal: null });
    // docsync waited for both before it exited.
    expect(processEnded(redisPid as number)).toBe(true);
    expect(processEnded(watchdogPid as number)).toBe(true);
    const messages = run.lines().map((line) => line.msg);
    expect(messages).toContain('embedded redis-server stopped');
    expect(messages).not.toContain('redis watchdog exited unexpectedly, starting another');
  });
});
