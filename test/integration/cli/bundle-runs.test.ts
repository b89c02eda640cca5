// The bundle of `npm run build` (dist/bundle/, what `npm start`, the `docsync` bin and the image
// run) works on its own: it answers --help, starts a daemon to /readyz and stops it, serves the
// dashboard (whose UI files stay in node_modules), and validates a document with the validator it
// loads from node_modules, and says what is wrong in a configuration in English (the one zod
// locale it bundles). It loads nothing of dist/src and none of the packages it bundles, nor
// fastify's JSON Schema compilers, which it leaves out.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/package-info.js';
import { cliEnv, startCli } from '../../support/cli-process.js';
import { redisUrl, tempDir, testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const BUNDLE = join(PACKAGE_ROOT, 'dist', 'bundle', 'bin.js');
const RECORDER = join(PACKAGE_ROOT, 'test', 'fixtures', 'record-loaded-modules.mjs');
const TOKEN = 'bundle-runs-token-0123456789';

/** `node dist/bundle/bin.js <args>`, with the modules it loads written to `modules`' file. */
async function bundleCli(label: string, args: readonly string[], env: Record<string, string> = {}) {
  const dir = await tempDir(label);
  const list = join(dir, 'modules.txt');
  await writeFile(list, '');
  const run = startCli(args, {
    command: [process.execPath, '--import', RECORDER, BUNDLE],
    env: cliEnv({ ...env, DOCSYNC_LOADED_MODULES: list }),
  });
  const modules = async () => (await readFile(list, 'utf8')).split('\n').filter((line) => line !== '');
  return { dir, run, modules };
}

const fromPackage = (modules: readonly string[], name: string) =>
  modules.some((path) => path.includes(`${join('node_modules', name)}/`));

describe('the bundle in dist/bundle', () => {
  it('answers --help', async () => {
    const { run } = await bundleCli('bundle-help', ['--help']);
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(run.stdout()).toMatch(/^Usage: docsync /);
    expect(run.stdout()).toContain('start [options]');
  });

  it('starts a configuration to /readyz, serves the dashboard, and exits 0 on SIGTERM', async () => {
    const prefix = uniquePrefix('bundle-start');
    testRedis(prefix);
    const dir = await tempDir('bundle-start-config');
    const file = join(dir, 'docsync.yaml');
    await writeFile(
      file,
      [
        `dataDir: ${join(dir, 'data')}`,
        'redis:',
        '  url: ${TEST_REDIS_URL}',
        `  prefix: ${prefix}`,
        'http:',
        '  listen: 127.0.0.1:0',
        `  token: ${TOKEN}`,
        '',
      ].join('\n'),
    );
    const { run, modules } = await bundleCli('bundle-start', ['start', '--config', file], {
      TEST_REDIS_URL: redisUrl(),
    });
    const address = (await run.waitForLog('http server listening')).address as string;
    const auth = { headers: { authorization: `Bearer ${TOKEN}` } };
    await waitFor(async () => (await fetch(`${address}/readyz`, auth)).status === 200, '/readyz 200');
    await run.waitForLog('docsync started');

    const page = await fetch(`${address}/ui`, auth);
    expect(page.status).toBe(200);
    const script = /src="(static\/js\/[^"]+\.js)"/.exec(await page.text())?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${address}/ui/${script}`, auth);
    expect(asset.status).toBe(200);
    // bull-board's UI files are read from node_modules/@bull-board/ui, found from the bundle.
    expect(Buffer.from(await asset.arrayBuffer()).length).toBeGreaterThan(1000);

    const loaded = await modules();
    expect(loaded.some((path) => path.includes(join('dist', 'src')))).toBe(false);
    expect(loaded.some((path) => path.includes(join('dist', 'bundle', 'bin.js')))).toBe(true);
    for (const bundled of ['fastify', 'bullmq', 'ioredis', 'zod', 'pino'])
      expect(fromPackage(loaded, bundled), bundled).toBe(false);
    // fastify's JSON Schema compilers load only for a route that declares a JSON schema, and no
    // server of docsync's does (bull-board's included): ajv is neither in what the start read nor
    // loaded from node_modules.
    const chunks = loaded.filter((path) => path.includes(join('dist', 'bundle')) && path.endsWith('.js'));
    for (const chunk of chunks)
      expect(await readFile(chunk, 'utf8'), chunk).not.toContain('node_modules/ajv/');
    for (const onUse of ['ajv', join('@fastify', 'ajv-compiler'), 'fast-json-stringify'])
      expect(fromPackage(loaded, onUse), onUse).toBe(false);
    // The workers' Lua scripts (src/queue/bullmq-internals/lua/), read from beside the chunks when
    // their module loads: the daemon that started loaded it, so the build put them there.
    const texts = await Promise.all(chunks.map((chunk) => readFile(chunk, 'utf8')));
    expect(texts.some((text) => text.includes('new URL("./lua/",import.meta.url)'))).toBe(true);

    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(run.lines().at(-1)).toMatchObject({ msg: 'shutdown complete', exitCode: 0 });
  });

  it("says what is wrong in a configuration in zod's English messages, the one locale it bundles", async () => {
    const dir = await tempDir('bundle-config');
    const file = join(dir, 'docsync.yaml');
    await writeFile(file, 'mappings:\n  - { name: 1, space: s, git: { repo: ./r, branch: main } }\n');
    const { run } = await bundleCli('bundle-config-run', ['validate-config', file]);
    expect(await run.exited).toEqual({ code: 2, signal: null });
    expect(run.stderr()).toContain(`mappings[0].name: expected string, got number (${file}:2:13)`);
  });

  it('validates an OpenAPI document with the validator from node_modules', async () => {
    const dir = await tempDir('bundle-openapi');
    const spec = join(dir, 'pets.yaml');
    await writeFile(spec, 'openapi: 3.1.0\ninfo:\n  title: Pets\npaths: {}\n');
    const { run, modules } = await bundleCli('bundle-openapi-run', ['openapi', 'validate', spec]);
    expect(await run.exited).toEqual({ code: 1, signal: null });
    expect(run.stderr()).toContain(`${spec}:2 #/info must have required property 'version'`);
    expect(fromPackage(await modules(), join('@seriousme', 'openapi-schema-validator'))).toBe(true);
  });
});
