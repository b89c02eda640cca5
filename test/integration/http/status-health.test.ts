// Health that tells the truth: with a token the service refuses, every poll and refresh fails, and
// after health.failingAfter of them in a row the mapping and the spec are `failing`, which the page's
// headline, `docsync status` (exit 1) and /metrics all say, with the hint to check service.token.
// A restart with the right token brings both back to `ok`.
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import { runCli } from '../../support/cli-process.js';
import { docsFixture } from '../../support/docs-fixture.js';
import { parsePrometheusText, sumOf } from '../../support/prometheus-text.js';
import { startTestDaemon, type TestDaemon } from '../../support/start-test-daemon.js';
import { uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';
import { docsDaemonYaml } from './docs-daemon-yaml.js';

interface Health {
  summary: { problems: Array<{ kind: string; name: string; state: string; job?: string; hint?: string }> };
  mappings: Array<{ name: string; state: string; failures: Array<{ job: string; count: number }> }>;
  openapi: Array<{ slug: string; state: string }>;
}

describe('the health of a mapping and a spec whose every poll fails', async () => {
  const fixture = await docsFixture('status-health');
  const { emulator } = fixture;
  const prefix = uniquePrefix('status-health');
  const start = (token: string) =>
    startTestDaemon({
      prefix,
      jobs: JOBS,
      yaml: docsDaemonYaml(fixture, {
        token,
        top: ['health: { failingAfter: 2 }'],
        docs: ['changeRequest: { poll: 1s }'],
        specEvery: '1s',
      }),
    });
  const status = async (daemon: TestDaemon) =>
    (await (await fetch(`${daemon.httpAddress}/status`)).json()) as Health;
  const gauge = async (daemon: TestDaemon, name: string, state: string) =>
    sumOf(parsePrometheusText(await (await fetch(`${daemon.httpAddress}/metrics`)).text()), name, { state });

  it('turns failing after failingAfter polls in a row, says so everywhere with a hint, and ok once fixed', async () => {
    const refused = await start('a-token-the-service-does-not-know');
    const failing = await waitFor(
      async () => {
        const now = await status(refused);
        return now.mappings[0]?.state === 'failing' && now.openapi[0]?.state === 'failing' ? now : undefined;
      },
      'the mapping and the spec to turn failing',
      30_000,
    );
    expect(failing.mappings[0]?.failures.map((run) => run.job)).toContain('poll-change-requests');
    expect(failing.mappings[0]?.failures.every((run) => run.count >= 1)).toBe(true);
    expect(failing.summary.problems).toEqual([
      expect.objectContaining({
        kind: 'mapping',
        name: 'docs',
        state: 'failing',
        hint: expect.stringContaining('check service.token'),
      }),
      expect.objectContaining({
        kind: 'spec',
        name: `${emulator.orgId}/pets`,
        state: 'failing',
        hint: expect.stringContaining('check service.token'),
      }),
    ]);

    const page = await (await fetch(`${refused.httpAddress}/`)).text();
    const main = page.slice(page.indexOf('<main>'), page.indexOf('Version '));
    expect(main).toContain(`2 need attention: mapping docs, spec ${emulator.orgId}/pets`);
    expect(main).toMatch(
      /mapping docs is failing \((poll-change-requests|import-content) failed \d+ times in a row/,
    );
    expect(main).toContain('the service refused the token: check service.token');

    const cli = await runCli(['status', '--url', refused.httpAddress]);
    expect(cli.code).toBe(1);
    expect(cli.stdout).toContain(`\n2 need attention: mapping docs, spec ${emulator.orgId}/pets\n`);
    expect(cli.stdout).toMatch(/^ {4}hint: the service refused the token: check service\.token/m);

    expect(await gauge(refused, 'docsync_mappings', 'failing')).toBe(1);
    expect(await gauge(refused, 'docsync_openapi_specs', 'failing')).toBe(1);
    expect(await gauge(refused, 'docsync_mappings', 'ok')).toBe(0);
    await refused.shutdown.run('the token is fixed');

    const fixed = await start(emulator.tokens.admin);
    const ok = await waitFor(
      async () => {
        const now = await status(fixed);
        return now.summary.problems.length === 0 ? now : undefined;
      },
      'every failing job to go through once',
      30_000,
    );
    expect(ok.mappings[0]).toMatchObject({ state: 'ok', failures: [] });
    expect(ok.openapi[0]).toMatchObject({ state: 'ok' });
    const page2 = await (await fetch(`${fixed.httpAddress}/`)).text();
    expect(page2).toContain('All in sync (1 mapping, 1 spec)');
    const cli2 = await runCli(['status', '--url', fixed.httpAddress]);
    expect(cli2.code).toBe(0);
    expect(await gauge(fixed, 'docsync_mappings', 'ok')).toBe(1);
    expect(await gauge(fixed, 'docsync_mappings', 'failing')).toBe(0);
  });
});
