// Issue 36: Redis loses every key of docsync (an operator's FLUSHALL, a Redis without persistence
// restarted) under a running docsync with a two-way mapping, a one-way mapping whose change requests
// docsync merges, and a spec refreshed every second. Within a poll interval the polls run again;
// nothing is done twice (no second change request for content already merged, no merge or spec
// version twice); a commit after the loss is imported and merged, and a writer's edit after the loss
// comes back as a commit on the branch, not on a conflict branch. The shared test Redis serves other
// files at once, so the loss is every key under this world's prefix, which is all docsync has.
import { describe, expect, it } from 'vitest';
import { SPEC_SLUG, startProcessesWorld } from '../../support/processes-world.js';
import { testRedis } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const SETTLE_MS = 90_000;
const UPLOAD = 'PUT /v1/orgs/:o/openapi/:slug';
const RESTORED = 'redis came back empty, schedulers restored';

/** Deletes every key under `prefix`: all that docsync keeps in Redis. */
async function wipe(prefix: string): Promise<number> {
  const redis = testRedis(prefix);
  let deleted = 0;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) deleted += await redis.del(...keys);
  } while (cursor !== '0');
  return deleted;
}

describe('Redis wiped under a running docsync', () => {
  it('is found again: polls run, nothing is done twice, a commit and an edit after the loss arrive', async () => {
    const world = await startProcessesWorld({ name: 'wiped', doors: 1, approvals: 0 });
    const { logged, state, prefix } = world;
    const { emulator } = logged.service;
    const processes = await world.start(1);
    const spec = () => Object.values(emulator.state.openapiSpecs).find((entry) => entry.slug === SPEC_SLUG);
    const versions = () =>
      Object.values(emulator.state.openapiVersions).filter((entry) => entry.specId === spec()?.id).length;
    const changeRequests = (space: string) =>
      Object.values(emulator.state.changeRequests).filter((cr) => cr.spaceId === space);
    await waitFor(
      async () =>
        (await state.get('both')).exportBase !== undefined &&
        (await state.get('oneway')).lastMerge !== undefined &&
        versions() === 1,
      'the first imports merged and the spec uploaded',
      SETTLE_MS,
    );
    const before = {
      both: changeRequests(world.spaces.both).length,
      oneway: changeRequests(world.spaces.oneway).length,
    };

    const uploads = logged.count(UPLOAD);
    expect(await wipe(prefix)).toBeGreaterThan(0);
    await waitFor(
      () => processes.lines().some((line) => line.msg === RESTORED),
      'the schedulers restored',
      SETTLE_MS,
    );
    // Whatever the first polls after the loss would have done twice, they have done: each mapping's
    // state is found again, and the spec's refresh has looked at its unchanged file.
    await waitFor(
      async () =>
        (await state.get('both')).lastSeenRevision !== undefined &&
        (await state.get('oneway')).lastImportedSha !== undefined &&
        (await state.get('both')).lastImportedSha !== undefined,
      'the state found again',
      SETTLE_MS,
    );
    const refreshedAfter = processes.lines().length;
    await waitFor(
      () =>
        processes
          .lines()
          .slice(refreshedAfter)
          .some((line) => line.msg === 'job completed' && line.name === 'refresh-openapi'),
      'a refresh after the loss',
      SETTLE_MS,
    );
    // The spec's content is found in its latest version: not even sent again.
    expect(logged.count(UPLOAD)).toBe(uploads);
    expect(versions()).toBe(1);
    expect(changeRequests(world.spaces.both)).toHaveLength(before.both);
    expect(changeRequests(world.spaces.oneway)).toHaveLength(before.oneway);

    const commit = await world.commit('oneway', 'after-the-loss-commit');
    const edit = 'after-the-loss-edit';
    world.editInService(edit);
    await waitFor(
      async () => (await world.spaceText('oneway')).includes('after-the-loss-commit'),
      'the commit after the loss merged',
      SETTLE_MS,
    );
    await waitFor(
      async () => {
        await world.repos.both.git('fetch', '--quiet', 'origin');
        return (await world.repos.both.git('show', 'origin/main:docs/notes.md')).includes(edit);
      },
      'the edit after the loss on the branch',
      SETTLE_MS,
    );
    expect((await state.get('oneway')).lastImportedSha).toBe(commit);
    expect(await world.repos.both.git('branch', '--remotes', '--list', 'origin/docsync/*')).toBe('');
    // One change request more for the one-way mapping (the commit after the loss), none for content
    // already merged; each revision exported once; each change request merged once.
    expect(changeRequests(world.spaces.oneway)).toHaveLength(before.oneway + 1);
    expect(changeRequests(world.spaces.oneway).every((cr) => cr.status === 'merged')).toBe(true);
    const exported = await world.exportedRevisions();
    expect(exported.length).toBe(new Set(exported).size);
    const merged = processes
      .lines()
      .filter((line) => line.msg === 'change request merged')
      .map((line) => String(line.cr));
    expect(merged.length).toBe(new Set(merged).size);
    expect(versions()).toBe(1);
    await processes.stop(0);
  }, 300_000);
});
