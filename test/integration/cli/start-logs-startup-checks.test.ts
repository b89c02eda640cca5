// `docsync start` runs the online checks of `docsync doctor` once it is up and logs one line per
// check: info when it passed, a warning with its code and hint when not. It keeps running either
// way: the service or a remote may come back.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliEnv, startCli } from '../../support/cli-process.js';
import { createTestRepo } from '../../support/git-repos.js';
import { createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import { redisUrl, tempDir, testRedis, uniquePrefix } from '../../support/test-context.js';

async function startWithToken(token: 'right' | 'wrong') {
  const dir = await tempDir('startup-checks');
  const prefix = uniquePrefix('startup-checks');
  testRedis(prefix);
  const emulator = await startTestEmulator();
  const space = await createTestSpace(emulator);
  const repo = await createTestRepo('main');
  await repo.commit({ 'docs/README.md': '# Docs\n' }, 'docs');
  await repo.push();
  const spec = join(dir, 'openapi.yaml');
  await writeFile(spec, 'openapi: 3.1.0\ninfo:\n  title: Pets\n  version: 1.0.0\npaths: {}\n');
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
      'service:',
      `  baseUrl: ${emulator.baseUrl}`,
      '  token: ${DOCSYNC_TOKEN}',
      'mappings:',
      '  - name: docs',
      `    space: ${space}`,
      '    git:',
      `      repo: ${repo.remote}`,
      '      branch: main',
      '      dir: docs',
      'openapi:',
      `  - org: ${emulator.orgId}`,
      '    slug: pets',
      `    source: { file: ${spec} }`,
      '    every: 1h',
      '',
    ].join('\n'),
  );
  const secret = token === 'right' ? emulator.tokens.admin : 'not-the-token-0123456789';
  const run = startCli(['start', '--config', file], {
    env: cliEnv({ TEST_REDIS_URL: redisUrl(), DOCSYNC_TOKEN: secret }),
  });
  return {
    run,
    secret,
    orgId: emulator.orgId,
    file,
    dir,
    env: cliEnv({ TEST_REDIS_URL: redisUrl(), DOCSYNC_TOKEN: secret }),
  };
}

type Line = Record<string, unknown>;

function checkLines(lines: readonly Line[]): Line[] {
  return lines.filter((line) => line.component === 'startup-check');
}

describe('docsync start', () => {
  it('logs each startup check that passed', async () => {
    const { run, orgId } = await startWithToken('right');
    await run.waitForLog('docsync started');
    const done = await run.waitForLog('startup checks done');
    expect(done).toMatchObject({ passed: 4, warnings: 0, failed: 0, skipped: 0 });
    const lines = checkLines(run.lines());
    expect(lines.map((line) => [line.level, line.msg, line.check, line.subject])).toEqual([
      ['info', 'startup check passed', 'service', undefined],
      ['info', 'startup check passed', 'space', 'docs'],
      ['info', 'startup check passed', 'repository', 'docs'],
      ['info', 'startup check passed', 'openapi', `${orgId}/pets`],
      ['info', 'startup checks done', undefined, undefined],
    ]);
    // The checks ran once docsync was up.
    const messages = run.lines().map((line) => line.msg);
    expect(messages.indexOf('docsync started')).toBeLessThan(messages.indexOf('startup check passed'));
    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual({ code: 0, signal: null });
  });

  it('warns with the code and the hint of a failed check, and keeps running', async () => {
    const { run, secret } = await startWithToken('wrong');
    const started = await run.waitForLog('docsync started');
    const done = await run.waitForLog('startup checks done');
    expect(done).toMatchObject({ passed: 2, failed: 1, skipped: 1 });
    const failed = checkLines(run.lines()).find((line) => line.msg === 'startup check failed');
    expect(failed).toMatchObject({
      level: 'warn',
      check: 'service',
      code: 'SERVICE_TOKEN_REFUSED',
      hint: 'set DOCSYNC_TOKEN (service.token) to a valid API token of the service',
    });
    expect(failed?.detail).toMatch(/refused the token \(401/);
    expect(checkLines(run.lines()).find((line) => line.msg === 'startup check skipped')).toMatchObject({
      check: 'space',
      subject: 'docs',
    });
    // Still serving: a failed check never stops docsync.
    expect(run.child.exitCode).toBeNull();
    expect((await fetch(`${started.http as string}/healthz`)).status).toBe(200);
    expect(run.stdout()).not.toContain(secret);
    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual({ code: 0, signal: null });
  });

  it('checks once for replicas started together with one configuration, and again for a new one', async () => {
    const { run, file, dir, env } = await startWithToken('right');
    await run.waitForLog('startup checks done');
    // A second replica: its own data folder, the same service, mappings and sources.
    const text = await readFile(file, 'utf8');
    const replica = join(dir, 'replica.yaml');
    await writeFile(replica, text.replace(/^dataDir: .*$/m, `dataDir: ${join(dir, 'replica-data')}`));
    const second = startCli(['start', '--config', replica], { env });
    const skipped = await second.waitForLog(
      'startup checks skipped: a process with this configuration ran them lately; docsync doctor runs them',
    );
    expect(skipped).toMatchObject({ component: 'startup-check', freshSeconds: 900 });
    expect(checkLines(second.lines()).filter((line) => line.msg === 'startup check passed')).toEqual([]);
    second.child.kill('SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });
    // Another configuration (a mapping's poll changed) is checked again.
    const changed = join(dir, 'changed.yaml');
    await writeFile(
      changed,
      text
        .replace(/^dataDir: .*$/m, `dataDir: ${join(dir, 'changed-data')}`)
        .replace('      dir: docs', '      dir: docs\n      poll: 2m'),
    );
    const third = startCli(['start', '--config', changed], { env });
    expect(await third.waitForLog('startup checks done')).toMatchObject({ passed: 4 });
    third.child.kill('SIGTERM');
    run.child.kill('SIGTERM');
    expect(await third.exited).toEqual({ code: 0, signal: null });
    expect(await run.exited).toEqual({ code: 0, signal: null });
  });
});
