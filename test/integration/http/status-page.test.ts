import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import { QUEUE_NAMES } from '../../../src/queue/queue-names.js';
import { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import { docsFixture } from '../../support/docs-fixture.js';
import { launchChromium } from '../../support/headless-chromium.js';
import { sampleImportWarnings } from '../../support/sample-import-warnings.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import { createTestSpace } from '../../support/start-test-emulator.js';
import { testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';
import { docsDaemonYaml } from './docs-daemon-yaml.js';

const HOSTILE = `Broken <img src=x onerror="document.title='owned'"> link`;
const TOKEN = 'a-page-token-of-enough-length';

interface Answer {
  mappings: Array<{
    name: string;
    lastMerge?: unknown;
    lastImport?: { changeRequest?: { number: number } };
    changeRequests: Array<{ number: number; reasons: string[] }>;
  }>;
  openapi: Array<{ version?: string }>;
  failures: Array<{ name: string }>;
}

async function cycledDaemon() {
  const fixture = await docsFixture('status-page');
  const { emulator, repo, dir } = fixture;
  const prefix = uniquePrefix('status-page');
  const daemon = await startTestDaemon({
    prefix,
    jobs: JOBS,
    yaml: docsDaemonYaml(fixture, {
      docs: ['changeRequest: { poll: 1s }', 'merge: { enabled: true, approvals: 0, noBrokenLinks: true }'],
      mappings: `  - name: lost
    space: ${await createTestSpace(emulator, 'Lost')}
    git: { repo: ${join(dir, 'no-such-repo.git')}, branch: main, poll: 1h }
`,
    }),
  });
  const status = async () => (await (await fetch(`${daemon.httpAddress}/status`)).json()) as Answer;
  // The first import merged, then a second held back by its broken link, with a hostile subject.
  await waitFor(async () => (await status()).mappings[0]?.lastMerge, 'the first merge');
  await repo.commit({ 'docs/install.md': '# Install\n\nSee [nowhere](nowhere.md).\n' }, HOSTILE);
  await repo.push();
  await waitFor(async () => {
    const now = await status();
    return (
      now.mappings[0]?.lastImport?.changeRequest?.number === 2 &&
      now.mappings[0].changeRequests.some(
        (verdict) => verdict.number === 2 && verdict.reasons.includes('1 broken link'),
      ) &&
      now.openapi[0]?.version !== undefined &&
      now.failures.some((failure) => failure.name === 'poll-git')
    );
  }, 'the held-back change request, the spec and the failure');
  // What an import read past in a folder, as the import records it, with a hostile file name.
  await new RedisMappingStateStore(testRedis(prefix), prefix).update('lost', {
    lastImport: {
      at: new Date().toISOString(),
      result: 'imported',
      source: 'git',
      warnings: sampleImportWarnings(`${HOSTILE}.md`, 7),
      warningCount: 14,
    },
  });
  return daemon;
}

const region = (page: Page, name: string) => page.getByRole('region', { name, exact: false });

describe('the status page in Chromium', async () => {
  const daemon = await cycledDaemon();
  const browser = await launchChromium();

  it('shows mappings, import warnings, verdicts, link checks, specs, events, failures, queues and next runs', async () => {
    const page = await browser.newPage();
    const response = await page.goto(`${daemon.httpAddress}/`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
    expect(await page.title()).toBe('docsync status');

    const docsRow = region(page, 'Mappings').getByRole('row').filter({ hasText: 'docs' }).first();
    await expect.poll(() => docsRow.innerText()).toMatch(/\bok\b/);
    expect(await docsRow.innerText()).toMatch(/merged #1/);
    expect(await docsRow.innerText()).toMatch(/imported [0-9a-f]{7} into #2/);
    const lostRow = region(page, 'Mappings').getByRole('row').filter({ hasText: 'lost' });
    expect(await lostRow.innerText()).toContain('GIT_NOT_FOUND');
    expect(await lostRow.innerText()).toContain('14 warnings');

    // The warnings, where they point, and how many more there are; a file name stays text.
    const warnings = region(page, 'Import warnings');
    expect(await warnings.getByRole('row').count()).toBe(4);
    const first = await warnings.getByRole('row').nth(1).innerText();
    expect(first).toMatch(/lost\s+SUMMARY\.md:7\s+Broken <img src=x onerror=/);
    expect(first).toContain('SUMMARY_MISSING_FILE');
    expect(await warnings.getByRole('row').nth(2).innerText()).toMatch(
      /lost\s+drafts\/notes\.md\s+No SUMMARY/,
    );
    // Only two of the 14 were kept: the rest are counted, not listed anywhere.
    expect(await warnings.getByRole('row').nth(3).innerText()).toMatch(/^lost\s+and 12 more$/);
    await lostRow.getByRole('link', { name: '14 warnings' }).click();
    expect(page.url()).toMatch(/#import-warnings$/);

    const verdict = await region(page, 'Change requests').getByRole('row').nth(1).innerText();
    expect(verdict).toContain('#2');
    expect(verdict).toContain('not mergeable');
    expect(verdict).toContain('1 broken link');
    // The subject from git is text on the page, not an element.
    expect(verdict).toContain('<img src=x onerror=');
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.title()).toBe('docsync status');

    const links = await region(page, 'Link checks').innerText();
    expect(links).toMatch(/main content.*no broken link/s);
    expect(links).toMatch(/change request #2.*1 broken/s);

    // The headline says what needs attention, and the broken link where it is written in git.
    const headline = page.getByRole('heading', { level: 2 }).first();
    expect(await headline.innerText()).toMatch(/^\d+ needs? attention: .*change request #2 \(docs\)/);
    expect(await headline.isVisible()).toBe(true);
    const broken = region(page, 'Broken links').getByRole('row').filter({ hasText: 'nowhere.md' });
    expect(await broken.innerText()).toMatch(
      /change request #2 \(docs\)\s+Install.*\s+docs\/install\.md:3:5\s+nowhere\.md/,
    );
    expect(await broken.getByText('docs/install.md:3:5').isVisible()).toBe(true);

    const specs = await region(page, 'OpenAPI specs').innerText();
    expect(specs).toContain('pets');
    expect(specs).toMatch(/1 added\s+added:\s+GET \/pets/);

    const events = await region(page, 'Recent events').innerText();
    expect(events).toContain('merged change request #1');
    expect(events).toMatch(/imported commit [0-9a-f]{7} into change request #2/);
    expect(events).toMatch(/uploaded spec .*\/pets/);

    const failures = await region(page, 'Recent failures').innerText();
    expect(failures).toContain('poll-git');
    expect(failures).toContain('GIT_NOT_FOUND');

    // Job ids, queues and next runs are folded away until asked for.
    expect(await region(page, 'Queues').isVisible()).toBe(false);
    await page.getByText('Queue internals', { exact: false }).click();
    expect(await region(page, 'Failed jobs').innerText()).toMatch(
      /import\s+poll-git\s+\S+\s+\d+\s+GIT_NOT_FOUND/,
    );
    expect(await region(page, 'Queues').getByRole('row').count()).toBe(QUEUE_NAMES.length + 1);
    expect(await region(page, 'Next runs').innerText()).toContain('poll-git/docs');
  });

  it("opens the change request's page on the local service from its link", async () => {
    const page = await browser.newPage();
    await page.goto(`${daemon.httpAddress}/`);
    const docsRow = region(page, 'Mappings').getByRole('row').filter({ hasText: 'docs' }).first();
    const response = page.waitForResponse((answer) => answer.url().includes('/change-requests/2'));
    await docsRow.getByRole('link', { name: '#2' }).click();
    expect((await response).status()).toBe(200);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toContain('<img src=x onerror=');
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Pages changed' }).innerText()).toMatch(
      /install\s+added|install\s+changed/,
    );
  });

  it('reloads itself', async () => {
    const page = await browser.newPage();
    await page.goto(`${daemon.httpAddress}/`);
    const first = await page.evaluate(() => performance.timeOrigin);
    await page.waitForEvent('load', { timeout: 15_000 });
    expect(await page.evaluate(() => performance.timeOrigin)).toBeGreaterThan(first);
  });

  it('links to the queue dashboard, which lists the queues, read-only', async () => {
    const page = await browser.newPage();
    await page.goto(`${daemon.httpAddress}/`);
    await page.getByRole('link', { name: 'queues dashboard' }).click();
    await page.waitForURL(/\/ui/);
    expect(await page.title()).toBe('docsync queues');
    for (const queue of ['import', 'maintain', 'export', 'openapi', 'links'])
      await page.getByText(queue, { exact: true }).first().waitFor();

    // Read-only: every action on jobs or queues is refused, and nothing changes.
    const address = daemon.httpAddress;
    const actions: Array<[string, string]> = [
      ['PUT', '/ui/api/queues/import/pause'],
      ['PUT', '/ui/api/queues/import/retry/failed'],
      ['PUT', '/ui/api/queues/import/clean/failed'],
      ['PUT', '/ui/api/queues/import/empty'],
      ['POST', '/ui/api/queues/import/add'],
    ];
    for (const [method, path] of actions) {
      const response = await fetch(`${address}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'poll-git', data: {} }),
      });
      expect({ path, status: response.status }).toEqual({ path, status: 405 });
    }
    // Pausing every queue at once skips read-only queues: it answers, and pauses none.
    expect((await fetch(`${address}/ui/api/queues/pause`, { method: 'PUT' })).status).toBe(200);
    for (const queue of ['import', 'maintain', 'export', 'openapi', 'links'] as const)
      expect(await daemon.queues.get(queue).isPaused()).toBe(false);
    expect(await daemon.queues.get('import').getFailedCount()).toBeGreaterThan(0);
  });
});

describe('the status page and dashboard with http.token', async () => {
  const daemon = await startTestDaemon({
    prefix: uniquePrefix('status-page-token'),
    yaml: `  token: ${TOKEN}\n`,
  });
  const browser = await launchChromium();

  it('are refused without the token, with a challenge a browser answers', async () => {
    for (const path of ['/', '/ui', '/ui/api/queues']) {
      const response = await fetch(`${daemon.httpAddress}${path}`);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('Basic realm="docsync"');
    }
    // A headless browser has no one to ask for the password: it gives up on the challenge.
    const page = await browser.newPage();
    await expect(page.goto(`${daemon.httpAddress}/`)).rejects.toThrow(/ERR_INVALID_AUTH_CREDENTIALS/);
  });

  it('open with the token as the password, for the page, the dashboard and its API', async () => {
    const context = await browser.newContext({ httpCredentials: { username: 'ops', password: TOKEN } });
    const page = await context.newPage();
    expect((await page.goto(`${daemon.httpAddress}/`))?.status()).toBe(200);
    expect(await page.getByRole('heading', { name: 'Mappings', exact: true }).innerText()).toBe('Mappings');
    const api: number[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/ui/api/')) api.push(response.status());
    });
    expect((await page.goto(`${daemon.httpAddress}/ui`))?.status()).toBe(200);
    await page.getByText('import', { exact: true }).first().waitFor();
    expect(api.length).toBeGreaterThan(0);
    expect(api.every((status) => status === 200)).toBe(true);
    // A wrong password is refused like no token.
    const wrong = await browser.newContext({
      httpCredentials: { username: 'ops', password: 'x'.repeat(29) },
    });
    expect((await (await wrong.newPage()).goto(`${daemon.httpAddress}/`))?.status()).toBe(401);
  });

  it('keeps /healthz open', async () => {
    expect((await fetch(`${daemon.httpAddress}/healthz`)).status).toBe(200);
  });
});

describe('the dashboard', () => {
  it('is not served when http.dashboard.enabled is false', async () => {
    const daemon = await startTestDaemon({
      prefix: uniquePrefix('no-dashboard'),
      yaml: '  dashboard: { enabled: false }\n',
    });
    expect((await fetch(`${daemon.httpAddress}/ui`)).status).toBe(404);
    const page = await (await fetch(`${daemon.httpAddress}/`)).text();
    expect(page).not.toContain('href="/ui"');
  });

  it('lets jobs be acted on when http.dashboard.readOnly is false', async () => {
    const daemon = await startTestDaemon({
      prefix: uniquePrefix('rw-dashboard'),
      yaml: '  dashboard: { readOnly: false }\n',
    });
    const response = await fetch(`${daemon.httpAddress}/ui/api/queues/links/pause`, { method: 'PUT' });
    expect(response.status).toBe(200);
    expect(await daemon.queues.get('links').isPaused()).toBe(true);
  });
});
