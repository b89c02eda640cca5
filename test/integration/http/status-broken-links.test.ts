// Broken links with their file and line in git, from the link check kept in Redis to /status and
// `docsync status`; a record written before docsync kept the place still reads.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RedisLinkCheckStore } from '../../../src/state/redis-link-check-store.js';
import { runCli } from '../../support/cli-process.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import { createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import { tempDir, testRedis, uniquePrefix } from '../../support/test-context.js';

const PLACED = {
  pageId: 'pg_install',
  pageTitle: 'Install',
  pagePath: 'install',
  target: 'nowhere.md',
  sourcePath: 'install.md',
  file: 'docs/install.md',
  line: 3,
  column: 5,
};
const MADE_IN_SERVICE = {
  pageId: 'pg_notes',
  pageTitle: 'Notes',
  target: 'https://gone.example/',
  noGitFile: true,
};
/** A link as docsync stored it before it placed links in git. */
const OLD = { pageId: 'pg_faq', pageTitle: 'FAQ', pagePath: 'faq', target: 'old-faq.md' };

interface Status {
  mappings: Array<{
    linkChecks: Array<{ target: string; broken: number; links: Array<Record<string, unknown>> }>;
  }>;
}

describe('broken links in /status and docsync status', async () => {
  const emulator = await startTestEmulator();
  const space = await createTestSpace(emulator);
  const dir = await tempDir('status-broken-links');
  const prefix = uniquePrefix('status-broken-links');
  const redis = testRedis(prefix);
  const store = new RedisLinkCheckStore(redis, prefix);
  const daemon = await startTestDaemon({
    prefix,
    yaml: `dataDir: ${join(dir, 'data')}
service: { baseUrl: "${emulator.baseUrl}", token: ${emulator.tokens.admin} }
mappings:
  - { name: docs, space: ${space}, git: { repo: ${join(dir, 'none.git')}, branch: main, poll: 1h } }
`,
  });
  const at = new Date().toISOString();
  await store.set(space, undefined, { at, revision: 'rev_1', broken: [PLACED, MADE_IN_SERVICE] });

  it('keeps where each link is written through Redis, and reads a record from before that', async () => {
    expect((await store.get(space, undefined))?.broken).toEqual([PLACED, MADE_IN_SERVICE]);
    await redis.set(store.keyOf(space, 'cr_old'), JSON.stringify({ at, revision: 'rev_0', broken: [OLD] }));
    expect(await store.get(space, 'cr_old')).toEqual({ at, revision: 'rev_0', broken: [OLD] });
    expect((await store.summary(space, 'cr_old'))?.links).toEqual([OLD]);
  });

  it('/status lists each broken link with its file, line and column', async () => {
    const status = (await (await fetch(`${daemon.httpAddress}/status`)).json()) as Status;
    expect(status.mappings[0]?.linkChecks).toEqual([
      expect.objectContaining({ target: 'main', broken: 2, links: [PLACED, MADE_IN_SERVICE] }),
    ]);
  });

  it('docsync status prints them with their file:line, and says so under the headline', async () => {
    const run = await runCli(['status', '--url', daemon.httpAddress]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^1 needs attention: the main content of docs$/m);
    expect(run.stdout).toMatch(/^ {2}the main content of docs has 2 broken links$/m);
    expect(run.stdout).toMatch(/^WHERE +PAGE +FILE IN GIT +LINK TO$/m);
    expect(run.stdout).toMatch(/^the main content of docs +install +docs\/install\.md:3:5 +nowhere\.md$/m);
    expect(run.stdout).toMatch(
      /^the main content of docs +Notes +no file in git: the page was made in the service +https:\/\/gone\.example\/$/m,
    );
    // Broken links need a person, but the mapping is not failing: monitoring is not paged for them.
    expect(run.code).toBe(0);
  });
});
