// The space poll's decisions, with the service, the mirror and the queues faked: which revisions it
// exports, which it records as docsync's own or as the baseline, and when it queues a pending export
// again. Recognising a person's merge of docsync's change request and finding a lost state again
// from git and the service are in test/integration/export/ and recovery/.
import { describe, expect, it } from 'vitest';
import { type PollSpaceServices, pollSpaceJob } from '../../../jobs/poll-space/poll-space-job.js';
import type { DocsApiClient } from '../../../src/api/docs-api-client.js';
import { parseConfig } from '../../../src/config/load-config.js';
import type { GitMirror } from '../../../src/git/git-mirror.js';
import type { MappingState } from '../../../src/state/mapping-state.js';
import { memoryStores } from '../../../src/state/memory-stores.js';
import { fakeJobRun } from '../../support/fake-job-run.js';
import { recordingQueues } from '../../support/recording-queues.js';

const NOW = new Date('2026-03-01T12:00:00Z');

const config = parseConfig(
  JSON.stringify({
    service: { baseUrl: 'https://docs.example.com/v1', token: 't' },
    mappings: [
      { name: 'inbound', space: 'spc_in', git: { repo: './in', branch: 'main' } },
      {
        name: 'outbound',
        space: 'spc_out',
        direction: 'space-to-git',
        git: { repo: './out', branch: 'main' },
      },
      { name: 'two-way', space: 'spc_both', direction: 'both', git: { repo: './both', branch: 'main' } },
    ],
  }),
  'docsync.yaml',
  {},
);

const SPACES: Record<string, string> = { inbound: 'spc_in', outbound: 'spc_out', 'two-way': 'spc_both' };

/** The space at `revision`; a mirror whose branch has no commit yet, so a first look recovers nothing. */
async function poll(mapping: string, revision: string, state: MappingState = {}, dryRun = false) {
  const api = {
    spaces: { get: async (_space: string) => ({ revision }) },
  } as Pick<DocsApiClient, 'spaces'> as DocsApiClient;
  const mirror = {
    fetch: async () => {},
    resolve: async () => undefined,
  } as Pick<GitMirror, 'fetch' | 'resolve'> as GitMirror;
  const { queues, added } = recordingQueues();
  const services: PollSpaceServices = {
    config,
    api,
    mirrorFor: () => mirror,
    stores: memoryStores(() => NOW),
    queues,
    now: () => NOW,
    dryRun,
  };
  await services.stores.mappings.update(mapping, state);
  const job = fakeJobRun({ name: 'poll-space', queue: 'export' });
  const run = () => pollSpaceJob.run({ ...services, ...job.run }, { mapping });
  const exports = () => added.filter((added) => added.name === 'export-space').map((added) => added.data);
  const stateNow = () => services.stores.mappings.get(mapping);
  return { run, services, exports, stateNow, outcomes: job.outcomes };
}

const exportOf = (mapping: string, revision: string) => ({ mapping, space: SPACES[mapping], revision });

describe('poll-space job', () => {
  it('leaves a mapping that only imports (git-to-space) alone', async () => {
    const { run, exports } = await poll('inbound', 'rev-1');
    expect(await run()).toEqual({ result: 'skipped', reason: 'direction' });
    expect(exports()).toEqual([]);
  });

  it('fails as SERVICE_NOT_CONFIGURED without a service', async () => {
    const { services } = await poll('outbound', 'rev-1');
    const job = fakeJobRun({ name: 'poll-space', queue: 'export' });
    await expect(
      pollSpaceJob.run({ ...services, api: undefined, ...job.run }, { mapping: 'outbound' }),
    ).rejects.toMatchObject({ code: 'SERVICE_NOT_CONFIGURED' });
  });

  it('exports an edit made in the service, and remembers it queued the export', async () => {
    const { run, exports, stateNow, outcomes } = await poll('outbound', 'rev-2', {
      lastSeenRevision: 'rev-1',
    });
    expect(await run()).toEqual({ result: 'export-queued', revision: 'rev-2' });
    expect(exports()).toEqual([exportOf('outbound', 'rev-2')]);
    expect(await stateNow()).toMatchObject({ lastSeenRevision: 'rev-2', exportQueued: 'rev-2' });
    // The runner records the poll's outcome for the mapping (its kind's countsToward), not the job.
    expect(outcomes).toEqual([]);
  });

  it('still queues the export in a dry run, which runs it dry, but remembers nothing', async () => {
    const { run, exports, stateNow } = await poll('outbound', 'rev-2', { lastSeenRevision: 'rev-1' }, true);
    expect(await run()).toEqual({ result: 'export-queued', revision: 'rev-2' });
    expect(exports()).toEqual([exportOf('outbound', 'rev-2')]);
    expect(await stateNow()).toEqual({ lastSeenRevision: 'rev-1' });
  });

  it('reports a revision seen before as unchanged, queuing nothing', async () => {
    const { run, exports } = await poll('outbound', 'rev-1', { lastSeenRevision: 'rev-1' });
    expect(await run()).toEqual({ result: 'unchanged', revision: 'rev-1' });
    expect(exports()).toEqual([]);
  });

  it('queues again an export that has not finished, while the space stays where it was', async () => {
    const { run, exports } = await poll('outbound', 'rev-1', {
      lastSeenRevision: 'rev-1',
      exportQueued: 'rev-1',
    });
    expect(await run()).toEqual({ result: 'export-pending', revision: 'rev-1' });
    expect(exports()).toEqual([exportOf('outbound', 'rev-1')]);
  });

  it('queues no pending export again in a dry run', async () => {
    const { run, exports } = await poll(
      'outbound',
      'rev-1',
      { lastSeenRevision: 'rev-1', exportQueued: 'rev-1' },
      true,
    );
    expect(await run()).toEqual({ result: 'unchanged', revision: 'rev-1' });
    expect(exports()).toEqual([]);
  });

  it('does not export a revision docsync made, but queues an unfinished export of an earlier edit again', async () => {
    const { run, services, exports, stateNow } = await poll('outbound', 'rev-3', {
      lastSeenRevision: 'rev-2',
      exportQueued: 'rev-2',
    });
    await services.stores.mappings.recordRevisionOrigin('spc_out', 'rev-3', {
      kind: 'import',
      mapping: 'outbound',
    });
    expect(await run()).toEqual({ result: 'skipped', origin: 'import' });
    expect(exports()).toEqual([exportOf('outbound', 'rev-2')]);
    expect((await stateNow()).lastSeenRevision).toBe('rev-3');
  });

  it('takes the first revision of a two-way mapping as the baseline, not as an edit', async () => {
    const { run, exports, stateNow } = await poll('two-way', 'rev-1');
    expect(await run()).toEqual({ result: 'baseline', revision: 'rev-1' });
    expect(exports()).toEqual([]);
    expect(await stateNow()).toEqual({ lastSeenRevision: 'rev-1' });
  });

  it('exports the first revision of a space-to-git mapping: git holds nothing of it yet', async () => {
    const { run, exports } = await poll('outbound', 'rev-1');
    expect(await run()).toEqual({ result: 'export-queued', revision: 'rev-1' });
    expect(exports()).toEqual([exportOf('outbound', 'rev-1')]);
  });
});
