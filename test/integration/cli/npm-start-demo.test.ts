// `npm start` on its own, as a newcomer runs it: the embedded demo imports the demo repository
// into a change request, the demo reviewer approves it, docsync checks its links and merges it, the
// spec is uploaded; a saved edit becomes a new change request; Ctrl-C stops everything with exit 0.
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/package-info.js';
import { cliEnv, startCli } from '../../support/cli-process.js';
import { launchChromium } from '../../support/headless-chromium.js';
import { tempDir } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

interface DemoStatus {
  mappings: Array<{
    name: string;
    lastMerge?: { changeRequest: { number: number } };
    linkChecks: Array<{ target: string; broken: number }>;
  }>;
  openapi: Array<{ slug: string; version?: string; lastNewVersion?: { changelog?: string[] } }>;
  events: Array<{ summary: string }>;
}

const MINUTE = 60_000;

/** The /status answer of a demo that logged `demo ready`. */
async function statusOf(run: ReturnType<typeof startCli>): Promise<DemoStatus> {
  const ready = run.lines().find((line) => line.msg === 'demo ready');
  return (await (await fetch(`${ready?.statusPage as string}status`)).json()) as DemoStatus;
}

describe('npm start', () => {
  it(
    'runs the whole demo on its own, syncs an edit, and stops on Ctrl-C with exit 0',
    async () => {
      const demoDir = await tempDir('npm-start-demo');
      const env = cliEnv({ DOCSYNC_DEMO_DIR: demoDir, DOCSYNC_HTTP_LISTEN: '127.0.0.1:0' });
      // --ignore-scripts skips the prestart build the test run's pretest already did; `start` runs.
      const run = startCli([], {
        command: ['npm', 'start', '--ignore-scripts', '--silent'],
        cwd: PACKAGE_ROOT,
        env,
        detached: true,
      });
      const ready = await run.waitForLog('demo ready', MINUTE);
      const page = ready.statusPage as string;
      const editFile = ready.edit as string;
      expect(page).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      expect(editFile.startsWith(demoDir)).toBe(true);
      // The banner goes to stderr right after the log line on stdout: two pipes, read apart.
      await waitFor(() => run.stderr().includes('Stop: Ctrl-C.'), 'the banner on stderr');
      expect(run.stderr()).toContain(`Status page: ${page}`);
      expect(run.stderr()).toContain(`Edit a page: ${editFile}`);

      const status = () => statusOf(run);
      // Within a minute, with nobody acting: merged, links checked, spec uploaded as a version.
      const cycle = await waitFor(
        async () => {
          const now = await status();
          const docs = now.mappings[0];
          // The merge job saves lastMerge before the runner records the job's event: wait for both.
          const merged = docs?.lastMerge?.changeRequest.number;
          return merged !== undefined &&
            now.events.some((event) => event.summary === `merged change request #${merged}`) &&
            docs?.linkChecks.some((check) => check.target === 'main') &&
            now.openapi[0]?.version !== undefined
            ? now
            : undefined;
        },
        'the demo to merge, check links and upload the spec',
        MINUTE,
      );
      expect(cycle.mappings[0]?.linkChecks.every((check) => check.broken === 0)).toBe(true);
      expect(cycle.openapi[0]).toMatchObject({
        slug: 'pets',
        lastNewVersion: { changelog: ['added GET /pets', 'added GET /pets/{petId}'] },
      });
      expect(run.lines().some((line) => line.msg === 'demo reviewer approved a change request')).toBe(true);
      expect(cycle.events.map((event) => event.summary)).toContain(
        `merged change request #${cycle.mappings[0]?.lastMerge?.changeRequest.number}`,
      );
      const html = await (await fetch(page)).text();
      expect(html).toContain('<title>docsync status</title>');
      await saveScreenshot(page);
      expect(html).toContain('merged #');

      // A saved edit in the demo folder becomes a new change request, which is merged in turn.
      const before = Math.max(
        ...cycle.events
          .flatMap((event) => /change request #(\d+)/.exec(event.summary)?.[1] ?? [])
          .map(Number),
      );
      await appendFile(editFile, '\nA line saved by the test.\n');
      const edited = await waitFor(
        async () => {
          const now = await status();
          const merged = now.mappings[0]?.lastMerge?.changeRequest.number;
          return merged !== undefined &&
            merged > before &&
            now.events.some((event) => event.summary === `merged change request #${merged}`)
            ? { merged, events: now.events.map((event) => event.summary) }
            : undefined;
        },
        'the edit to be imported into a new change request and merged',
        MINUTE,
      );
      expect(edited.events).toContain(`imported the working copy into change request #${edited.merged}`);

      // Ctrl-C in a terminal signals the whole group: npm, and docsync under it. docsync closes
      // everything and exits 0; npm, interrupted itself, reports the interruption as npm always does.
      process.kill(-(run.child.pid as number), 'SIGINT');
      const exit = await run.exited;
      expect([
        { code: 0, signal: null },
        { code: null, signal: 'SIGINT' },
      ]).toContainEqual(exit);
      expect(run.lines().at(-1)).toMatchObject({ msg: 'shutdown complete', exitCode: 0 });
      expect(run.lines().filter((line) => line.level === 'error' || line.level === 'fatal')).toEqual([]);

      // The next start keeps the repository with the edit, and begins with a fresh service and Redis.
      const again = startCli(['start'], { env, detached: true });
      await again.waitForLog('demo ready', MINUTE);
      expect(again.lines().some((line) => line.msg === 'demo repository kept from an earlier run')).toBe(
        true,
      );
      const restarted = await waitFor(
        async () => (await statusOf(again)).mappings[0]?.lastMerge?.changeRequest.number,
        'the restarted demo to merge',
        MINUTE,
      );
      expect(restarted).toBeLessThanOrEqual(2);
      process.kill(-(again.child.pid as number), 'SIGINT');
      expect(await again.exited).toEqual({ code: 0, signal: null });
    },
    4 * MINUTE,
  );
});

/**
 * The README's picture of the status page is this demo's, as a newcomer sees it after `npm start`:
 * with DOCSYNC_SCREENSHOTS naming a folder (`DOCSYNC_SCREENSHOTS=docs/images npx vitest run
 * test/integration/cli/npm-start-demo.test.ts`), the page is saved there as status-page.png.
 */
async function saveScreenshot(address: string): Promise<void> {
  const folder = process.env.DOCSYNC_SCREENSHOTS;
  if (folder === undefined || folder === '') return;
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1200, height: 820 } });
  await page.goto(address);
  await page.screenshot({ path: join(folder, 'status-page.png') });
}
