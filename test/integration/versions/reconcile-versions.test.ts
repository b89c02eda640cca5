import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DocsApiClient } from '../../../src/api/docs-api-client.js';
import { type BranchMappingConfig, branchMappingSchema } from '../../../src/config/branch-mapping-schema.js';
import { GitMirror } from '../../../src/git/git-mirror.js';
import { collect } from '../../../src/versions/collect.js';
import { listBranches } from '../../../src/versions/list-branches.js';
import { reconcileVersions } from '../../../src/versions/reconcile-versions.js';
import { RedisVersionStateStore } from '../../../src/versions/redis-version-state-store.js';
import { VersionCalls } from '../../../src/versions/version-calls.js';
import { MARKER_FIELD } from '../../../src/versions/version-targets.js';
import { createTestRepo, type TestRepo } from '../../support/git-repos.js';
import { startTestEmulator, type TestEmulator } from '../../support/start-test-emulator.js';
import { testApiClient } from '../../support/test-api-client.js';
import { captureLog, tempDir, testRedis, uniquePrefix } from '../../support/test-context.js';

interface World {
  test: TestEmulator;
  api: DocsApiClient;
  repo: TestRepo;
  mirror: GitMirror;
  store: RedisVersionStateStore;
  redis: ReturnType<typeof testRedis>;
  prefix: string;
  site: string;
  /** Methods of the calls the client made since the last take. */
  takeMethods: () => string[];
}

const test0 = await startTestEmulator();

function handbook(test: TestEmulator, repo: TestRepo, changes: Partial<BranchMappingConfig> = {}) {
  return {
    ...branchMappingSchema.parse({
      name: 'handbook',
      git: { repo: repo.remote, branches: ['main', 'release/*'], dir: 'docs' },
      spaces: { title: 'Handbook {version}', collection: 'Handbook', customFields: { version: '{version}' } },
      site: {
        org: test.orgId,
        site: 'Developer docs',
        section: 'Handbook',
        path: '{version}',
        default: 'main',
      },
      onBranchDelete: 'archive',
    }),
    ...changes,
  };
}

async function world(): Promise<World> {
  const test = test0;
  const client = testApiClient(test);
  const repo = await createTestRepo('main');
  await repo.commit({ 'docs/README.md': '# Handbook\n' }, 'docs');
  await repo.push();
  const mirror = new GitMirror({
    repo: repo.remote,
    dir: join(await tempDir('versions-mirror'), 'm.git'),
    log: captureLog().log,
  });
  const prefix = uniquePrefix('versions');
  const redis = testRedis(prefix);
  // Each test its own site, so that sections and site spaces of one never meet another's.
  const title = `Developer docs`;
  for (const old of await collect(client.client.sites.listAll(test.orgId)))
    await client.client.sites.delete(test.orgId, old.id);
  const site = await client.client.sites.create(test.orgId, { title });
  let seen = client.attempts.length;
  return {
    test,
    api: client.client,
    repo,
    mirror,
    store: new RedisVersionStateStore(redis, prefix),
    redis,
    prefix,
    site: site.id,
    takeMethods: () => {
      const methods = client.attempts.slice(seen).map((attempt) => attempt.method);
      seen = client.attempts.length;
      return methods;
    },
  };
}

async function reconcile(w: World, mapping: BranchMappingConfig, dryRun = false) {
  const { log, lines } = captureLog();
  const outcome = await reconcileVersions({
    api: w.api,
    mapping,
    branches: await listBranches(w.mirror),
    store: w.store,
    calls: new VersionCalls(dryRun),
    log,
    dryRun,
  });
  return {
    ...outcome,
    lines,
    actions: outcome.calls.map((call) => `${call.action} ${call.branch ?? ''}`.trim()),
  };
}

async function section(w: World) {
  const sections = await collect(w.api.sites.sections.listAll(w.test.orgId, w.site));
  return sections.find((candidate) => candidate.title === 'Handbook');
}

async function collectionSpaces(w: World) {
  const collections = await collect(w.api.collections.listAll(w.test.orgId));
  const handbookCollection = collections.find((collection) => collection.title === 'Handbook');
  if (handbookCollection === undefined) return [];
  return collect(w.api.collections.listSpacesAll(handbookCollection.id));
}

async function pushBranch(w: World, branch: string): Promise<void> {
  await w.repo.git('push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`);
}

describe('reconcile of a branches mapping', () => {
  let w: World;
  beforeEach(async () => {
    w = await world();
    // The collection of an earlier test goes, with its spaces, so that each test starts bare.
    for (const collection of await collect(w.api.collections.listAll(w.test.orgId))) {
      for (const space of await collect(w.api.collections.listSpacesAll(collection.id)))
        await w.api.spaces.delete(space.id);
      await w.api.collections.delete(collection.id);
    }
    w.takeMethods();
  });

  it('makes a space per branch in the collection, with its fields, published at its path; then nothing', async () => {
    const mapping = handbook(w.test, w.repo);
    await pushBranch(w, 'release/2.0');
    const first = await reconcile(w, mapping);
    expect(first.actions).toEqual([
      'create collection',
      'create custom field',
      'create custom field',
      'create space main',
      'move space main',
      'set custom fields main',
      'create space release/2.0',
      'move space release/2.0',
      'set custom fields release/2.0',
      'create section main',
      'add site space release/2.0',
      'set site space path main',
      'set site space path release/2.0',
    ]);
    const spaces = await collectionSpaces(w);
    expect(spaces.map((space) => space.title).sort()).toEqual(['Handbook 2.0', 'Handbook main']);
    const released = spaces.find((space) => space.title === 'Handbook 2.0');
    const values = await w.api.customFields.valuesOf(released?.id ?? '');
    expect(Object.fromEntries(values.map((entry) => [entry.customField.name, entry.value]))).toEqual({
      version: '2.0',
      [MARKER_FIELD]: 'handbook/release/2.0',
    });
    const published = await section(w);
    expect(
      published?.siteSpaces.map((siteSpace) => [
        siteSpace.space.title,
        siteSpace.path,
        siteSpace.default === true,
      ]),
    ).toEqual([
      ['Handbook main', 'main', true],
      ['Handbook 2.0', '2.0', false],
    ]);

    w.takeMethods();
    const again = await reconcile(w, mapping);
    expect(again.calls).toEqual([]);
    expect(new Set(w.takeMethods())).toEqual(new Set(['GET']));
  });

  it('restores a site space removed by hand, and says so', async () => {
    const mapping = handbook(w.test, w.repo);
    await pushBranch(w, 'release/2.0');
    const first = await reconcile(w, mapping);
    const siteSpace = first.state.branches['release/2.0']?.siteSpace ?? '';
    await w.api.sites.siteSpaces.delete(w.test.orgId, w.site, siteSpace);

    const next = await reconcile(w, mapping);
    expect(next.drift.map((call) => `${call.action}: ${call.reason}`)).toEqual([
      'add site space: drift: site space removed by hand',
      'set site space path: drift: site space removed by hand',
    ]);
    expect((await section(w))?.siteSpaces.map((one) => one.path)).toEqual(['main', '2.0']);
  });

  it('makes the space of a branch again when it was deleted by hand, and says so', async () => {
    const mapping = handbook(w.test, w.repo);
    const first = await reconcile(w, mapping);
    await w.api.spaces.delete(first.state.branches.main?.space ?? '');
    const next = await reconcile(w, mapping);
    expect(next.drift.map((call) => `${call.action}: ${call.reason}`)).toEqual([
      'create space: drift: its space was deleted by hand',
      'move space: drift: its space was deleted by hand',
      'set custom fields: drift: its space was deleted by hand',
      'add site space: drift: site space removed by hand',
      'remove site space: drift: its space was deleted by hand',
      'set site space path: drift: site space removed by hand',
      'set default variant: drift: another variant is the default',
    ]);
    expect(next.state.branches.main?.space).not.toBe(first.state.branches.main?.space);
  });

  it('renames back a section renamed by hand', async () => {
    const mapping = handbook(w.test, w.repo);
    const first = await reconcile(w, mapping);
    await w.api.sites.sections.update(w.test.orgId, w.site, first.state.section ?? '', {
      title: 'Old handbook',
    });
    const next = await reconcile(w, mapping);
    expect(next.drift.map((call) => call.action)).toEqual(['rename section']);
    expect((await section(w))?.id).toBe(first.state.section);
  });

  it("renames back a space it made, and sets its fields again when the mapping's values change", async () => {
    const mapping = handbook(w.test, w.repo);
    await pushBranch(w, 'release/2.0');
    const first = await reconcile(w, mapping);
    const released = first.state.branches['release/2.0']?.space ?? '';
    await w.api.spaces.update(released, { title: 'Old handbook' });

    const renamed = await reconcile(w, mapping);
    expect(renamed.drift.map((call) => `${call.action} ${call.branch}: ${call.reason}`)).toEqual([
      'rename space release/2.0: drift: its title is "Old handbook", the mapping gives "Handbook 2.0"',
    ]);
    expect((await w.api.spaces.get(released)).title).toBe('Handbook 2.0');

    const edition = handbook(w.test, w.repo, {
      spaces: { ...mapping.spaces, customFields: { version: 'v{version}', edition: '{branch}' } },
    });
    const changed = await reconcile(w, edition);
    expect(changed.actions).toEqual([
      'create custom field',
      'set custom fields main',
      'set custom fields release/2.0',
    ]);
    const values = await w.api.customFields.valuesOf(released);
    expect(Object.fromEntries(values.map((entry) => [entry.customField.name, entry.value]))).toEqual({
      version: 'v2.0',
      edition: 'release/2.0',
      [MARKER_FIELD]: 'handbook/release/2.0',
    });
    expect((await reconcile(w, edition)).calls).toEqual([]);
  });

  it('finds its spaces again by their marker when Redis lost its state, and duplicates nothing', async () => {
    const mapping = handbook(w.test, w.repo);
    await pushBranch(w, 'release/2.0');
    const first = await reconcile(w, mapping);
    await w.redis.del(w.store.keyOf('handbook'));

    const again = await reconcile(w, mapping);
    expect(again.calls).toEqual([]);
    expect(again.state).toEqual(first.state);
    expect(await collectionSpaces(w)).toHaveLength(2);
  });

  it('takes a deleted branch off the site and keeps its space when archiving', async () => {
    const mapping = handbook(w.test, w.repo);
    await pushBranch(w, 'release/2.0');
    const first = await reconcile(w, mapping);
    await w.repo.git('push', '--quiet', 'origin', '--delete', 'release/2.0');

    const next = await reconcile(w, mapping);
    expect(next.actions).toEqual(['remove site space release/2.0']);
    expect((await section(w))?.siteSpaces.map((one) => one.path)).toEqual(['main']);
    const space = await w.api.spaces.get(first.state.branches['release/2.0']?.space ?? '');
    expect(space.deletedAt).toBeUndefined();
    expect(next.state.branches['release/2.0']).toMatchObject({ archived: true });
    expect((await reconcile(w, mapping)).calls).toEqual([]);
  });

  it('deletes the space of a deleted branch it made, never one a person made', async () => {
    const mapping = handbook(w.test, w.repo, { onBranchDelete: 'delete' });
    await pushBranch(w, 'release/2.0');
    await pushBranch(w, 'release/3.0');
    // A person made the space of release/3.0 before docsync saw the branch: docsync adopts it.
    const collection = await w.api.collections.create(w.test.orgId, { title: 'Handbook' });
    const theirs = await w.api.spaces.create(w.test.orgId, { title: 'Handbook 3.0' });
    await w.api.spaces.move(theirs.id, collection.id);
    const first = await reconcile(w, mapping);
    expect(first.state.branches['release/3.0']).toEqual(
      expect.objectContaining({ space: theirs.id, created: false }),
    );
    await w.repo.git('push', '--quiet', 'origin', '--delete', 'release/2.0', 'release/3.0');

    const next = await reconcile(w, mapping);
    expect(next.actions).toEqual([
      'remove site space release/2.0',
      'remove site space release/3.0',
      'delete space release/2.0',
    ]);
    expect(
      (await w.api.spaces.get(first.state.branches['release/2.0']?.space ?? '')).deletedAt,
    ).toBeDefined();
    expect((await w.api.spaces.get(theirs.id)).deletedAt).toBeUndefined();
    expect(
      next.lines.some((line) => line.msg === 'version space not deleted: docsync did not create it'),
    ).toBe(true);
  });

  it('lists the calls it would make in a dry run, and makes none of them', async () => {
    const mapping = handbook(w.test, w.repo);
    await pushBranch(w, 'release/2.0');
    const planned = await reconcile(w, mapping, true);
    expect(planned.actions).toContain('create space release/2.0');
    expect(planned.actions).toContain('add site space release/2.0');
    expect(new Set(w.takeMethods())).toEqual(new Set(['GET']));
    expect(await w.store.get('handbook')).toEqual({ branches: {} });
  });

  it('fails clearly when the site does not exist, and warns of a pattern that matches nothing', async () => {
    const mapping = handbook(w.test, w.repo, {
      git: { repo: w.repo.remote, branches: ['main', 'hotfix/*'], dir: 'docs', poll: 30_000 },
      site: { org: w.test.orgId, site: 'Nowhere', section: 'Handbook', path: '{version}' },
    });
    const { log, lines } = captureLog();
    await expect(
      reconcileVersions({
        api: w.api,
        mapping,
        branches: await listBranches(w.mirror),
        store: w.store,
        calls: new VersionCalls(false),
        log,
        dryRun: false,
      }),
    ).rejects.toMatchObject({
      code: 'VERSIONS_TARGET_MISSING',
      message: expect.stringContaining('site "Nowhere" does not exist'),
    });
    expect(lines.find((line) => line.msg === 'branch pattern matches no branch')).toMatchObject({
      pattern: 'hotfix/*',
    });
  });
});
