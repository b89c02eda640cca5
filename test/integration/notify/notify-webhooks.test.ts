// The webhooks of `notify:` hear about merges, newly broken links (with file and line), a mapping
// failing and recovering, and work that failed for good: as Slack's `{text}` or docsync's JSON
// signed with HMAC-SHA256, once per happening, without holding up the sync.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import { createTestRepo } from '../../support/git-repos.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import { createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import { stateWhere } from '../../support/state-where.js';
import { testRedis, uniquePrefix } from '../../support/test-context.js';
import { refuseAdminToken, startWithRightToken, tokenFixWorld } from '../../support/token-fix.js';
import { waitFor } from '../../support/wait-for.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.js';

const SECRET = 'a-shared-secret-for-the-test';

const of = (receiver: WebhookReceiver, event: string) =>
  receiver.received.filter((hook) => hook.headers['x-docsync-event'] === event);

describe('notify webhooks', () => {
  it('tell a Slack webhook and a signed JSON webhook of a merge, then of newly broken links with file and line', async () => {
    const emulator = await startTestEmulator();
    const space = await createTestSpace(emulator, 'Docs');
    const repo = await createTestRepo();
    await repo.commit(
      { 'docs/README.md': '# Welcome\n\nSee [install](install.md).\n', 'docs/install.md': '# Install\n' },
      'First docs',
    );
    await repo.push();
    const slack = await startWebhookReceiver();
    const json = await startWebhookReceiver();
    const prefix = uniquePrefix('notify');
    const state = new RedisMappingStateStore(testRedis(prefix), prefix);
    await startTestDaemon({
      prefix,
      jobs: JOBS,
      service: emulator,
      yaml: `mappings:
  - name: docs
    space: ${space}
    git: { repo: ${repo.remote}, branch: main, dir: docs, poll: 1s }
    changeRequest: { poll: 1s }
    merge: { enabled: true, approvals: 0 }
notify:
  - { url: "${slack.url}/services/T0/B0/secret-path", format: slack, events: [merged, broken-links] }
  - { url: "${json.url}/docsync", format: json, secret: ${SECRET}, mappings: [docs] }
`,
    });

    await stateWhere(state, 'docs', (s) => s.lastMerge !== undefined, 'the first merge');
    const [merged] = await waitFor(
      () => of(json, 'merged').length > 0 && of(json, 'merged'),
      'the merge told',
    );
    expect(merged?.json).toMatchObject({ source: 'docsync', kind: 'merged', mapping: 'docs', space });
    expect(merged?.json.summary).toMatch(/^merged change request #\d+$/);
    // Signed as GitHub signs its webhooks: HMAC-SHA256 of the exact body.
    const signature = createHmac('sha256', SECRET)
      .update(merged?.text ?? '')
      .digest('hex');
    expect(merged?.headers['x-docsync-signature-256']).toBe(`sha256=${signature}`);
    const [slackMerged] = await waitFor(
      () => of(slack, 'merged').length > 0 && of(slack, 'merged'),
      'slack told',
    );
    expect(Object.keys(slackMerged?.json ?? {})).toEqual(['text']);
    expect(slackMerged?.json.text).toMatch(/^\*docsync\* merged — docs: merged change request #\d+$/);
    expect(slackMerged?.headers['x-docsync-signature-256']).toBeUndefined();

    // A broken link in a new commit: its change request is checked, and the link told with its place.
    await repo.commit(
      { 'docs/README.md': '# Welcome\n\nSee [install](install.md).\n\n[Gone](gone.md)\n' },
      'Link',
    );
    await repo.push();
    const [broken] = await waitFor(
      () => of(slack, 'broken-links').length > 0 && of(slack, 'broken-links'),
      'the broken link told',
      20_000,
    );
    expect(broken?.json.text).toContain('1 newly broken link in change request');
    expect(broken?.json.text).toContain('• `docs/README.md:5` → gone.md');
    const [brokenJson] = await waitFor(
      () => of(json, 'broken-links').length > 0 && of(json, 'broken-links'),
      'json',
    );
    expect(brokenJson?.json).toMatchObject({
      kind: 'broken-links',
      newlyBroken: 1,
      links: [{ target: 'gone.md', file: 'docs/README.md', line: 5 }],
    });
    // Once each: the same merge and the same broken link are not told again by later polls.
    const checked = await state.get('docs');
    expect(checked.changeRequestId).toBeDefined();
    expect(of(json, 'merged')).toHaveLength(1);
    expect(of(slack, 'broken-links')).toHaveLength(1);
  }, 45_000);

  it('tell a mapping failing once after failingAfter failures in a row, then recovered, and never block the work', async () => {
    const receiver = await startWebhookReceiver();
    const world = await tokenFixWorld({
      name: 'notify-failing',
      files: { 'docs/README.md': '# Welcome\n' },
      yaml: (space, remote) => `health: { failingAfter: 2 }
mappings:
  - name: docs
    space: ${space}
    git: { repo: ${remote}, branch: main, dir: docs, poll: 1s }
    changeRequest: { poll: 1s }
notify:
  - { url: "${receiver.url}/hook", events: [failing, recovered, failed] }
`,
    });
    const refused = refuseAdminToken(world.emulator);
    const daemon = await startWithRightToken(world.setup);
    const [failing] = await waitFor(
      () => of(receiver, 'failing').length > 0 && of(receiver, 'failing'),
      'failing',
      20_000,
    );
    expect(failing?.json).toMatchObject({ kind: 'failing', mapping: 'docs' });
    expect(failing?.json.summary).toMatch(/401/);
    expect(String(failing?.json.hint)).toMatch(/token/);
    expect(failing?.json.summary).toMatch(/failed 2 times in a row/);

    refused.accept();
    await stateWhere(world.state, 'docs', (s) => s.lastImportedSha === world.sha, 'the import after the fix');
    const recovered = await waitFor(
      () => of(receiver, 'recovered').length >= of(receiver, 'failing').length && of(receiver, 'recovered'),
      'recovered',
    );
    expect(recovered[0]?.json).toMatchObject({ kind: 'recovered', mapping: 'docs' });
    // One failing and one recovered per job that failed in a row, not one per failure.
    const jobsFailing = of(receiver, 'failing').map((hook) => hook.json.job);
    expect(new Set(jobsFailing).size).toBe(jobsFailing.length);
    expect(
      of(receiver, 'recovered')
        .map((hook) => hook.json.job)
        .sort(),
    ).toEqual([...jobsFailing].sort());
    // Polls that fail are told as failing, never one `failed` per tick.
    expect(of(receiver, 'failed').filter((hook) => String(hook.json.job).startsWith('poll-'))).toEqual([]);
    expect(daemon.lines.filter((line) => line.msg === 'notification not queued')).toEqual([]);
  }, 45_000);
});
