import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load-config.js';
import { PACKAGE_ROOT } from '../../../src/package-info.js';
import { Queues } from '../../../src/queue/queues.js';
import { cliEnv, runCli, startCli } from '../../support/cli-process.js';
import { captureLog, redisUrl, tempDir, testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

async function configFile(dir: string, prefix: string, extra = ''): Promise<string> {
  const file = join(dir, 'docsync.yaml');
  await writeFile(
    file,
    `dataDir: ${join(dir, 'data')}\nredis:\n  url: \${TEST_REDIS_URL}\n  prefix: ${prefix}\nhttp:\n  listen: 127.0.0.1:0\n${extra}`,
  );
  return file;
}

/** `docsync start` on a config file of `yaml` (given its folder) in a new folder, run to its exit. */
async function startOn(
  label: string,
  yaml: (dir: string) => string,
  options: { env?: Record<string, string> } = {},
) {
  const dir = await tempDir(label);
  const file = join(dir, 'docsync.yaml');
  await writeFile(file, yaml(dir));
  return { dir, file, ...(await runCli(['start', '--config', file], options)) };
}

describe('docsync start', () => {
  it('serves /healthz and exits 0 on SIGTERM', async () => {
    const dir = await tempDir('start');
    const prefix = uniquePrefix('cli-start');
    testRedis(prefix);
    const run = startCli(['start', '--config', await configFile(dir, prefix)], {
      env: cliEnv({ TEST_REDIS_URL: redisUrl() }),
    });
    const started = await run.waitForLog('docsync started');
    const health = await fetch(`${started.http as string}/healthz`);
    expect(health.status).toBe(200);
    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual({ code: 0, signal: null });
    // The process ended because everything was closed, not because the fallback timer fired.
    expect(run.lines().at(-1)).toMatchObject({ msg: 'shutdown complete', exitCode: 0 });
  });

  it('runs the embedded demo with no --config: its own redis-server under .docsync/demo/redis', async () => {
    const cwd = await tempDir('start-demo');
    const run = startCli(['start'], { cwd, env: cliEnv({ DOCSYNC_HTTP_LISTEN: '127.0.0.1:0' }) });
    const started = await run.waitForLog('docsync started');
    const embedded = run.lines().find((line) => line.msg === 'embedded redis-server started');
    expect(embedded).toMatchObject({ dir: join(cwd, '.docsync', 'demo', 'redis') });
    expect(run.lines().find((line) => line.msg === 'redis connected')?.redis).toBe(
      `redis://127.0.0.1:${embedded?.port as number}`,
    );
    expect((await fetch(`${started.http as string}/readyz`)).status).toBe(200);
    run.child.kill('SIGINT');
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(
      run
        .lines()
        .map((line) => line.msg)
        .slice(-2),
    ).toEqual(['embedded redis-server stopped', 'shutdown complete']);
    expect(existsSync(join(cwd, '.docsync', 'demo', 'redis', 'docsync.lock'))).toBe(false);
  });

  it('lets a running job finish on SIGTERM, then exits 0', async () => {
    const dir = await tempDir('start-job');
    const prefix = uniquePrefix('cli-job');
    const redis = testRedis(prefix);
    const run = startCli(['start', '--config', await configFile(dir, prefix)], {
      env: cliEnv({ TEST_REDIS_URL: redisUrl() }),
      script: join(PACKAGE_ROOT, 'test', 'fixtures', 'start-with-slow-job.mjs'),
    });
    await run.waitForLog('docsync started');
    const config = parseConfig(`redis:\n  url: ${redisUrl()}\n  prefix: ${prefix}\n`, 'test.yaml', {});
    const queues = new Queues(redis, config, captureLog().log);
    const marker = join(dir, 'job');
    await queues.get('maintain').add('slow-job', { marker, ms: 1500 }, { jobId: 'slow/1' });
    await waitFor(() => existsSync(`${marker}.started`), 'the job to start');

    run.child.kill('SIGTERM');
    const exit = await run.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(await readFile(`${marker}.done`, 'utf8')).toBe('finished');
    expect(await queues.get('maintain').getJobState('slow/1')).toBe('completed');
    const messages = run.lines().map((line) => line.msg);
    expect(messages.indexOf('job completed')).toBeGreaterThan(messages.indexOf('shutting down'));
    expect(messages.at(-1)).toBe('shutdown complete');
    await queues.close();
  });

  it('writes pretty lines for people with --log-format pretty', async () => {
    const dir = await tempDir('start-pretty');
    const prefix = uniquePrefix('cli-pretty');
    testRedis(prefix);
    const file = await configFile(dir, prefix);
    const run = startCli(['start', '--config', file, '--log-format', 'pretty'], {
      env: cliEnv({ TEST_REDIS_URL: redisUrl() }),
    });
    await waitFor(() => run.stdout().includes('docsync started'), 'the pretty start line');
    run.child.kill('SIGTERM');
    expect((await run.exited).code).toBe(0);
    expect(run.lines()).toEqual([]);
    expect(run.stdout()).toMatch(/INFO.*: docsync started/);
    expect(run.stdout()).toContain('shutdown complete');
  });

  it('stops with exit code 2 and one line on what to install when redis-server is missing', async () => {
    const { code, stderr } = await startOn(
      'start-no-redis',
      (dir) => `dataDir: ${join(dir, 'data')}\nhttp:\n  listen: 127.0.0.1:0\n`,
      { env: cliEnv({ PATH: '/nonexistent/empty-path' }) },
    );
    expect(code).toBe(2);
    expect(stderr).toBe(
      'docsync: redis-server was not found on PATH: install it (Debian/Ubuntu: sudo apt-get install redis-server; macOS: brew install redis) or set REDIS_URL (redis.url) to a Redis 6.2+ you run\n',
    );
  });

  it('refuses to listen beyond loopback without http.token: exit 2, the one problem named', async () => {
    const { code, stderr, stdout, file } = await startOn('start-open', () => 'http:\n  listen: 0.0.0.0:0\n');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `${file}: invalid configuration, 1 problem(s):\n  http.token: Required: listening on 0.0.0.0 reaches beyond this machine; set http.token or listen on 127.0.0.1 (${file}:2:3)\n`,
    );
  });

  it('stops with exit code 2 before starting anything when the configuration is invalid', async () => {
    const { code, stderr, stdout, dir } = await startOn(
      'start-invalid',
      () => 'http:\n  listen: 127.0.0.1:0\nmappings:\n  - name: docs\n',
    );
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('mappings[0].space: Required');
    expect(existsSync(join(dir, '.docsync'))).toBe(false);
  });
});
