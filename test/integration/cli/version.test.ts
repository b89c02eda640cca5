// `docsync --version` prints docsync's own version (package.json, through src/package-info.ts), both
// from the built program and the way the README runs it from a clone, `npx docsync --version`,
// which must reach docsync rather than answer with npm's version.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../../src/package-info.js';
import { cliEnv, runCli, startCli } from '../../support/cli-process.js';
import { tempDir } from '../../support/test-context.js';

const run = promisify(execFile);

describe('docsync --version', () => {
  it("prints docsync's version and exits 0", async () => {
    const { code, stdout, stderr } = await runCli(['--version']);
    expect(stderr).toBe('');
    expect(stdout).toBe(`${VERSION}\n`);
    expect(code).toBe(0);
  });

  it("answers npx docsync --version in the clone with docsync's version, not npm's", async () => {
    // npx installs the clone's own bin into its cache: a cache of the test's own, offline, so the
    // test neither reaches the registry nor leaves anything in the developer's npm cache.
    const env = cliEnv({
      npm_config_cache: await tempDir('npx-cache'),
      npm_config_offline: 'true',
      npm_config_update_notifier: 'false',
      npm_config_fund: 'false',
    });
    const npm = (await run('npm', ['--version'], { env })).stdout.trim();
    expect(npm).not.toBe(VERSION);
    const npx = startCli(['--version'], { command: ['npx', '--no-install', 'docsync'], env });
    const { code } = await npx.exited;
    expect(npx.stdout()).toBe(`${VERSION}\n`);
    expect(code).toBe(0);
  }, 60_000);
});
