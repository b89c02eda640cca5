// Versioned docs end to end: the daemon reconciles a branches mapping on its schedule, each branch
// becomes a mapping of its own, imported into change requests of its own space.
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import type { ChangeRequest } from '../../../src/api/schemas/change-request-schema.js';
import { RedisEventLog } from '../../../src/state/redis-event-log.js';
import { collect } from '../../../src/versions/collect.js';
import { RedisVersionStateStore } from '../../../src/versions/redis-version-state-store.js';
import { createTestRepo } from '../../support/git-repos.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import { startTestEmulator } from '../../support/start-test-emulator.js';
import { testApiClient } from '../../support/test-api-client.js';
import { testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

describe('a branches mapping in the daemon', () => {
  it('gives a pushed release branch its space, imports it, and imports its commits there only', async () => {
    const emulator = await startTestEmulator();
    const api = testApiClient(emulator).client;
    const site = await api.sites.create(emulator.orgId, { title: 'Developer docs' });
    const repo = await createTestRepo('main');
    await repo.commit(
      { 'docs/README.md': '# Handbook\n', 'docs/SUMMARY.md': '* [Handbook](README.md)\n' },
      'docs',
    );
    await repo.push();
    const prefix = uniquePrefix('versions-daemon');
    const yaml = `mappings:
  - name: handbook
    git: { repo: ${repo.remote}, branches: ["main", "release/*"], dir: docs, poll: 1s }
    spaces: { title: "Handbook {version}", collection: Handbook, customFields: { version: "{version}" } }
    site: { org: ${emulator.orgId}, site: Developer docs, section: Handbook, path: "{version}", default: main }
    changeRequest: { poll: 1s }
`;
    await startTestDaemon({ prefix, jobs: JOBS, service: emulator, yaml });
    const store = new RedisVersionStateStore(testRedis(prefix), prefix);
    const main = await waitFor(
      async () => (await store.get('handbook')).branches.main?.space,
      'the space of main',
    );

    await repo.commit({ 'docs/README.md': '# Handbook 2.0\n' }, 'Handbook for 2.0');
    await repo.git('push', '--quiet', 'origin', 'HEAD:refs/heads/release/2.0');
    const released = await waitFor(
      async () => (await store.get('handbook')).branches['release/2.0']?.space,
      'the space of release/2.0',
      30_000,
    );
    const openIn = async (space: string): Promise<ChangeRequest[]> =>
      collect(api.changeRequests.listAll(space, { status: 'open' }));
    const [first] = await waitFor(
      async () => {
        const open = await openIn(released);
        return open.length > 0 && open;
      },
      'the first import of release/2.0',
      30_000,
    );
    expect((await api.spaces.get(released)).title).toBe('Handbook 2.0');
    const sections = await collect(api.sites.sections.listAll(emulator.orgId, site.id));
    expect(
      sections[0]?.siteSpaces.map((siteSpace) => [
        siteSpace.space.id,
        siteSpace.path,
        siteSpace.default === true,
      ]),
    ).toEqual([
      [main, 'main', true],
      [released, '2.0', false],
    ]);

    // What the reconcile changed, and why, is in the event log the status page shows.
    const events = await new RedisEventLog(testRedis(prefix), prefix).recent();
    expect(
      events.find((event) => event.job === 'reconcile-versions' && event.summary.includes('release/2.0'))
        ?.summary,
    ).toMatch(/create space release\/2\.0: new branch.*add site space release\/2\.0: new branch/);

    const before = (await openIn(main)).length;
    await repo.commit({ 'docs/README.md': '# Handbook 2.0\n\nFixed.\n' }, 'Fix 2.0');
    await repo.git('push', '--quiet', 'origin', 'HEAD:refs/heads/release/2.0');
    await waitFor(
      async () => {
        const cr = await api.changeRequests.get(released, first?.id ?? '');
        return cr.revision !== first?.revision;
      },
      'the import of the commit on release/2.0',
      30_000,
    );
    expect(await openIn(released)).toHaveLength(1);
    expect(await openIn(main)).toHaveLength(before);
  }, 90_000);
});
