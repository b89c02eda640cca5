// The update job's decisions, with the service's change request calls faked: which change requests
// it leaves as they are, what a dry run and a conflict change (nothing), and what an update carries
// over. The update itself, against the service, is in test/integration/upkeep/.
import { describe, expect, it } from 'vitest';
import {
  type UpdateChangeRequestServices,
  updateChangeRequestJob,
} from '../../../jobs/update-change-request/update-change-request-job.js';
import { parseConfig } from '../../../src/config/load-config.js';
import { memoryStores } from '../../../src/state/memory-stores.js';
import {
  changeRequestOf,
  type FakeChangeRequests,
  fakeChangeRequests,
} from '../../support/fake-change-requests.js';
import { fakeJobRun } from '../../support/fake-job-run.js';
import { recordingQueues } from '../../support/recording-queues.js';

const config = parseConfig(
  JSON.stringify({
    service: { baseUrl: 'https://docs.example.com/v1', token: 't' },
    mappings: [{ name: 'docs', space: 'spc_1', git: { repo: './repo', branch: 'main' } }],
  }),
  'docsync.yaml',
  {},
);

const payload = { mapping: 'docs', space: 'spc_1', changeRequest: 'cr_1', revision: 'rev-cr-1' };

function world(service: FakeChangeRequests, dryRun = false) {
  const { queues, added } = recordingQueues();
  const services: UpdateChangeRequestServices = {
    config,
    api: service.api,
    stores: memoryStores(),
    queues,
    dryRun,
  };
  const job = fakeJobRun({ name: 'update-change-request', queue: 'maintain' });
  return { ctx: { ...services, ...job.run }, services, added, outcomes: job.outcomes };
}

describe('update-change-request job', () => {
  it('leaves a change request that is current as it is', async () => {
    const service = fakeChangeRequests({ reads: [changeRequestOf({ outdated: false })] });
    const { ctx, added } = world(service);
    expect(await updateChangeRequestJob.run(ctx, payload)).toEqual({
      result: 'current',
      revision: 'rev-cr-1',
    });
    expect(service.calls).toEqual(['get']);
    expect(added).toEqual([]);
  });

  it.each(['merged', 'archived'] as const)(
    'leaves an outdated change request that is %s alone',
    async (status) => {
      const service = fakeChangeRequests({ reads: [changeRequestOf({ outdated: true, status })] });
      const { ctx } = world(service);
      expect(await updateChangeRequestJob.run(ctx, payload)).toMatchObject({ result: 'current' });
      expect(service.calls).toEqual(['get']);
    },
  );

  it('updates an outdated draft too', async () => {
    const service = fakeChangeRequests({
      reads: [changeRequestOf({ outdated: true, status: 'draft' })],
      update: async () => ({ result: 'update', revision: 'rev-cr-2' }),
    });
    const { ctx } = world(service);
    expect(await updateChangeRequestJob.run(ctx, payload)).toEqual({
      result: 'updated',
      revision: 'rev-cr-2',
    });
  });

  it('only says what it would do in a dry run', async () => {
    const service = fakeChangeRequests({ reads: [changeRequestOf({ outdated: true })] });
    const { ctx, added } = world(service, true);
    expect(await updateChangeRequestJob.run(ctx, payload)).toEqual({ result: 'dry-run' });
    expect(service.calls).toEqual(['get']);
    expect(added).toEqual([]);
  });

  it('carries docsync origin to the updated revision and checks its links again', async () => {
    const service = fakeChangeRequests({
      reads: [changeRequestOf({ outdated: true })],
      update: async () => ({ result: 'update', revision: 'rev-cr-2' }),
    });
    const { ctx, services, added, outcomes } = world(service);
    await services.stores.mappings.recordRevisionOrigin('spc_1', 'rev-cr-1', {
      kind: 'import',
      mapping: 'docs',
      sha: 'c'.repeat(40),
      changeRequest: 'cr_1',
    });
    expect(await updateChangeRequestJob.run(ctx, payload)).toEqual({
      result: 'updated',
      revision: 'rev-cr-2',
    });
    expect(await services.stores.mappings.revisionOrigin('spc_1', 'rev-cr-2')).toEqual({
      kind: 'update',
      mapping: 'docs',
      sha: 'c'.repeat(40),
      changeRequest: 'cr_1',
    });
    expect(added).toEqual([
      expect.objectContaining({
        queue: 'links',
        name: 'check-links',
        data: { space: 'spc_1', changeRequest: 'cr_1', revision: 'rev-cr-2', comment: true },
      }),
    ]);
    // The runner records the mapping's outcome from the kind's countsToward, not the job.
    expect(outcomes).toEqual([]);
  });

  it('stops at a conflict: no origin carried, no link check, a person resolves it', async () => {
    const service = fakeChangeRequests({
      reads: [changeRequestOf({ outdated: true })],
      update: async () => ({ result: 'conflicts', revision: 'rev-cr-1' }),
    });
    const { ctx, services, added } = world(service);
    await services.stores.mappings.recordRevisionOrigin('spc_1', 'rev-cr-1', {
      kind: 'import',
      mapping: 'docs',
    });
    expect(await updateChangeRequestJob.run(ctx, payload)).toEqual({
      result: 'conflicts',
      revision: 'rev-cr-1',
    });
    expect(added).toEqual([]);
  });

  it('fails as SERVICE_NOT_CONFIGURED without a service, before reading anything', async () => {
    const { ctx } = world(fakeChangeRequests({ reads: [] }));
    await expect(updateChangeRequestJob.run({ ...ctx, api: undefined }, payload)).rejects.toMatchObject({
      code: 'SERVICE_NOT_CONFIGURED',
    });
  });

  it('tells people of an update and of a conflict, and of nothing else', () => {
    const describe = (result: string) =>
      updateChangeRequestJob.describe?.({ result, revision: 'r' }, payload);
    expect(describe('updated')).toBe('updated change request cr_1 from the main content');
    expect(describe('conflicts')).toBe(
      'change request cr_1 conflicts with the main content: a person must resolve it',
    );
    expect(describe('current')).toBeUndefined();
    expect(describe('dry-run')).toBeUndefined();
  });

  it('counts toward its mapping and locks its space', () => {
    const { countsToward } = updateChangeRequestJob;
    expect(countsToward === false ? undefined : countsToward(payload)).toEqual({ mapping: 'docs' });
    expect(updateChangeRequestJob.lockKey?.(payload)).toBe('spc_1');
  });
});
