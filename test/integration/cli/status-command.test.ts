// `docsync status` run as a child process against a daemon in the test process: tables for people,
// the JSON as it came, and one clear line when the daemon cannot be asked.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findFreePort } from '../../../src/net/find-free-port.js';
import { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import { cliEnv, runCli } from '../../support/cli-process.js';
import { startFileServer } from '../../support/file-server.js';
import { sampleImportWarnings } from '../../support/sample-import-warnings.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import { createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import { tempDir, testRedis, uniquePrefix } from '../../support/test-context.js';

const TOKEN = 'a-status-token-for-tests';

describe('docsync status', async () => {
  const emulator = await startTestEmulator();
  const space = await createTestSpace(emulator);
  const dir = await tempDir('cli-status');
  const prefix = uniquePrefix('cli-status');
  const redis = testRedis(prefix);
  const daemon = await startTestDaemon({
    prefix,
    yaml: `  token: ${TOKEN}
dataDir: ${join(dir, 'data')}
service: { baseUrl: "${emulator.baseUrl}", token: ${emulator.tokens.admin} }
mappings:
  - { name: product-docs, space: ${space}, git: { repo: ${join(dir, 'none.git')}, branch: main, poll: 1h } }
`,
  });
  await new RedisMappingStateStore(redis, prefix).update('product-docs', {
    paused: { reason: 'manual', detail: 'held for review', at: new Date().toISOString() },
    // What the last import read past, as the import records it.
    lastImport: {
      at: new Date().toISOString(),
      result: 'imported',
      source: 'git',
      warnings: sampleImportWarnings(),
    },
  });

  it('prints the status as tables: the mapping with its state and import warnings, the queues, the next runs', async () => {
    const run = await runCli(['status', '--url', daemon.httpAddress, '--token', TOKEN]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^docsync 0\.0\.0-test, up /);
    expect(run.stdout).toMatch(/^NAME +DIRECTION +STATE +LAST IMPORT +COMMIT +CR +WHEN +WARNINGS /m);
    expect(run.stdout).toMatch(
      /^product-docs +git-to-space +paused \(manual\) +imported +- +- +now +2 +- +-$/m,
    );
    expect(run.stdout).toContain(
      [
        'Import warnings',
        'MAPPING       WHERE            WARNING',
        'product-docs  SUMMARY.md:12    guides/old.md is not in the folder: the entry is skipped.',
        'product-docs  drafts/notes.md  No SUMMARY.md entry lists this page: it is not imported.',
        '',
      ].join('\n'),
    );
    expect(run.stdout).toContain('  product-docs: paused now: held for review\n');
    // No workers here: each poll's first run waits, due now, beside its scheduler's next tick, at
    // its place in the interval to come.
    expect(run.stdout).toMatch(/^QUEUE +WAITING +ACTIVE +DELAYED/m);
    expect(run.stdout).toMatch(/^import +1 +0 +1 +0 +0 +0 +0$/m);
    expect(run.stdout).toMatch(
      /^(now|due|in \d+s) +\S+ \S+ +maintain +poll-change-requests\/product-docs +every 1m$/m,
    );
    // Not a terminal: no colours.
    expect(run.stdout).not.toContain('\u001b');
  });

  it('prints the JSON as it came with --json, the token taken from DOCSYNC_HTTP_TOKEN', async () => {
    const run = await runCli(['status', '--url', daemon.httpAddress, '--json'], {
      env: cliEnv({ DOCSYNC_HTTP_TOKEN: TOKEN }),
    });
    expect(run.code).toBe(0);
    const status = JSON.parse(run.stdout) as { mappings: Array<{ name: string; state: string }> };
    expect(status.mappings).toEqual([
      expect.objectContaining({
        name: 'product-docs',
        state: 'paused',
        lastImport: expect.objectContaining({
          warnings: [
            expect.objectContaining({ code: 'SUMMARY_MISSING_FILE', file: 'SUMMARY.md', line: 12 }),
            expect.objectContaining({ code: 'PAGE_UNLISTED', file: 'drafts/notes.md' }),
          ],
          warningCount: 2,
        }),
      }),
    ]);
  });

  it('finds the address and the token in the configuration given with --config', async () => {
    const file = join(dir, 'client.yaml');
    await writeFile(
      file,
      `http:\n  listen: ${new URL(daemon.httpAddress).host}\n  token: \${DOCSYNC_HTTP_TOKEN_FOR_TEST}\n`,
    );
    const run = await runCli(['status', '--config', file], {
      env: cliEnv({ DOCSYNC_HTTP_TOKEN_FOR_TEST: TOKEN }),
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('product-docs');
  });

  it('says a token is needed when the daemon answers 401', async () => {
    const run = await runCli(['status', '--url', daemon.httpAddress]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `docsync status: ${daemon.httpAddress} needs a token: give --token, set DOCSYNC_HTTP_TOKEN, or --config with http.token\n`,
    );
    const wrong = await runCli(['status', '--url', daemon.httpAddress, '--token', 'not-the-right-token']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('refused the token (401)');
    expect(wrong.stderr).not.toContain('not-the-right-token');
  });

  it('exits 1 with one line when nothing answers at the address', async () => {
    const address = `http://127.0.0.1:${await findFreePort()}`;
    const run = await runCli(['status', '--url', address]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `docsync status: cannot reach docsync at ${address} (ECONNREFUSED): is it running? Give its address with --url\n`,
    );
  });

  it('exits 1 with a clear line when the answer is not a docsync status, and 2 on a bad address', async () => {
    const files = await startFileServer();
    files.put('/status', '{"hello":"world"}', 'application/json');
    const run = await runCli(['status', '--url', files.origin]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^docsync status: the answer of .*\/status is not a docsync status: version: .*\n$/,
    );
    const bad = await runCli(['status', '--url', 'ftp://example.com']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('is not an http(s) address');
  });
});
