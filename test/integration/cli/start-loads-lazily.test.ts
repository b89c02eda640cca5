// `docsync start` loads what it uses when it uses it: the queue dashboard (bull-board) only when
// `http.dashboard` is on, the OpenAPI validator only when a document is validated, the local service
// only for `docsync emulator` (and the demo). The CLI (tsc's build, a module per source file) runs
// as a child process with a preload that writes the path of every module it loads to a file; the
// bundle's chunks are checked in bundle-runs.test.ts.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/package-info.js';
import { cliEnv, startCli, TSC_BIN } from '../../support/cli-process.js';
import { redisUrl, tempDir, testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const RECORDER = join(PACKAGE_ROOT, 'test', 'fixtures', 'record-loaded-modules.mjs');
const DASHBOARD = `${join('node_modules', '@bull-board')}/`;
const VALIDATOR = `${join('node_modules', '@seriousme', 'openapi-schema-validator')}/`;
const LOCAL_SERVICE = `${join(PACKAGE_ROOT, 'dist', 'src', 'emulator')}/`;
const SPEC = 'openapi: 3.1.0\ninfo:\n  title: Pets\n  version: 1.0.0\npaths: {}\n';
const PRETTY = `${join('node_modules', 'pino-pretty')}/`;

/** `docsync <args>` with its loaded modules recorded; `modules()` reads them so far. */
async function recordedCli(
  label: string,
  args: (dir: string) => Promise<string[]>,
  env: Record<string, string> = {},
) {
  const dir = await tempDir(label);
  const list = join(dir, 'modules.txt');
  await writeFile(list, '');
  const run = startCli(await args(dir), {
    command: [process.execPath, '--import', RECORDER, TSC_BIN],
    env: cliEnv({ ...env, DOCSYNC_LOADED_MODULES: list }),
  });
  const modules = async () => (await readFile(list, 'utf8')).split('\n').filter((line) => line !== '');
  return { dir, run, modules };
}

async function startOn(label: string, yaml: (dir: string, prefix: string) => string) {
  const prefix = uniquePrefix(label);
  testRedis(prefix);
  return recordedCli(
    label,
    async (dir) => {
      const file = join(dir, 'docsync.yaml');
      await writeFile(file, yaml(dir, prefix));
      await writeFile(join(dir, 'openapi.yaml'), SPEC);
      return ['start', '--config', file];
    },
    { TEST_REDIS_URL: redisUrl() },
  );
}

function baseConfig(dir: string, prefix: string): string[] {
  return [
    `dataDir: ${join(dir, 'data')}`,
    'redis:',
    '  url: ${TEST_REDIS_URL}',
    `  prefix: ${prefix}`,
    'http:',
    '  listen: 127.0.0.1:0',
  ];
}

const loaded = (modules: readonly string[], part: string) => modules.some((path) => path.includes(part));

describe('docsync start loads what it uses when it uses it', () => {
  it('serves without loading the dashboard, the OpenAPI validator or the local service when none is used', async () => {
    const { run, modules } = await startOn('lazy-none', (dir, prefix) =>
      [...baseConfig(dir, prefix), '  dashboard:', '    enabled: false', ''].join('\n'),
    );
    const started = await run.waitForLog('docsync started');
    await run.waitForLog('startup checks done');
    const address = started.http as string;
    expect((await fetch(`${address}/healthz`)).status).toBe(200);
    expect((await fetch(`${address}/status`)).status).toBe(200);
    expect((await fetch(`${address}/ui`)).status).toBe(404);
    const paths = await modules();
    // The recorder works: the daemon's own modules and fastify are listed.
    expect(loaded(paths, join('dist', 'src', 'daemon', 'start-daemon.js'))).toBe(true);
    expect(loaded(paths, `${join('node_modules', 'fastify')}/`)).toBe(true);
    expect(loaded(paths, DASHBOARD)).toBe(false);
    expect(loaded(paths, VALIDATOR)).toBe(false);
    expect(loaded(paths, LOCAL_SERVICE)).toBe(false);
    expect(loaded(paths, PRETTY)).toBe(false);
    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual({ code: 0, signal: null });
  });

  it('loads the dashboard when it is on, and serves it at /ui behind the token', async () => {
    const token = 'lazy-dashboard-token-0123456789';
    const { run, modules } = await startOn('lazy-dashboard', (dir, prefix) =>
      [...baseConfig(dir, prefix), `  token: ${token}`, ''].join('\n'),
    );
    const started = await run.waitForLog('docsync started');
    const address = started.http as string;
    const auth = { headers: { authorization: `Bearer ${token}` } };
    expect((await fetch(`${address}/healthz`)).status).toBe(200);
    // Loaded once the server answers, before anyone asks for /ui.
    await waitFor(async () => loaded(await modules(), DASHBOARD) || undefined, 'bull-board loaded');
    expect((await fetch(`${address}/ui`)).status).toBe(401);
    const page = await fetch(`${address}/ui`, auth);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('docsync queues');
    // The UI's files come through whole, with their type.
    const script = /src="(static\/js\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${address}/ui/${script}`, auth);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    const bytes = Buffer.from(await asset.arrayBuffer());
    expect(bytes.length).toBeGreaterThan(1000);
    expect(bytes.length).toBe(Number(asset.headers.get('content-length')));
    const queues = await fetch(`${address}/ui/api/queues`, auth);
    expect(queues.status).toBe(200);
    const names = ((await queues.json()) as { queues: Array<{ name: string }> }).queues.map((q) => q.name);
    expect(names).toContain('import');
    // Read-only by default: bull-board refuses to pause a queue.
    expect((await fetch(`${address}/ui/api/queues/import/pause`, { ...auth, method: 'PUT' })).status).toBe(
      405,
    );
    expect(loaded(await modules(), VALIDATOR)).toBe(false);
    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual({ code: 0, signal: null });
  });

  it('loads the OpenAPI validator when a document is validated (the startup checks read the spec)', async () => {
    const { run, modules } = await startOn('lazy-validator', (dir, prefix) => {
      const spec = join(dir, 'openapi.yaml');
      return [
        ...baseConfig(dir, prefix),
        '  dashboard:',
        '    enabled: false',
        'service:',
        '  baseUrl: http://127.0.0.1:9',
        '  token: not-a-real-token-0123456789',
        'openapi:',
        '  - org: org-1',
        '    slug: pets',
        `    source: { file: ${spec} }`,
        '    every: 1h',
        '',
      ].join('\n');
    });
    await run.waitForLog('docsync started');
    await run.waitForLog('startup checks done');
    const paths = await modules();
    expect(loaded(paths, VALIDATOR)).toBe(true);
    expect(loaded(paths, DASHBOARD)).toBe(false);
    expect(loaded(paths, LOCAL_SERVICE)).toBe(false);
    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual({ code: 0, signal: null });
  });

  it('loads the local service for `docsync emulator`', async () => {
    const { run, modules } = await recordedCli('lazy-emulator', async () => [
      'emulator',
      '--port',
      '0',
      '--token',
      'demo',
    ]);
    await waitFor(() => (run.stdout().includes('docsync emulator: http') ? true : undefined), 'the emulator');
    const paths = await modules();
    expect(loaded(paths, LOCAL_SERVICE)).toBe(true);
    expect(loaded(paths, DASHBOARD)).toBe(false);
    run.child.kill('SIGTERM');
    await run.exited;
  });
});
