// The merge job's decisions, with the service's change request calls faked: what it records when a
// change request may not be merged, when it updates instead, when it leaves the merge to the next
// poll (moved, refused, deferred behind an export), and what a merge leaves behind. The merge
// against the service and the runner is in test/integration/upkeep/.
import { describe, expect, it } from 'vitest';
import {
  type MergeChangeRequestServices,
  mergeChangeRequestJob,
} from '../../../jobs/merge-change-request/merge-change-request-job.js';
import { ApiError } from '../../../src/api/api-error.js';
import { parseConfig } from '../../../src/config/load-config.js';
import { memoryStores } from '../../../src/state/memory-stores.js';
import { MERGE_REASONS } from '../../../src/upkeep/plan-merge.js';
import {
  approvalOf,
  type ChangeRequestScript,
  changeRequestOf,
  fakeChangeRequests,
} from '../../support/fake-change-requests.js';
import { fakeJobRun } from '../../support/fake-job-run.js';
import { recordingQueues } from '../../support/recording-queues.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const SHA = 'c'.repeat(40);

const config = parseConfig(
  JSON.stringify({
    service: { baseUrl: 'https://docs.example.com/v1', token: 't' },
    mappings: [
      {
        name: 'docs',
        space: 'spc_1',
        git: { repo: './docs', branch: 'main' },
        merge: { enabled: true, approvals: 1 },
        report: { github: { repo: 'acme/docs', tokenEnv: 'GH_TOKEN' } },
      },
      { name: 'manual', space: 'spc_2', git: { repo: './manual', branch: 'main' } },
      {
        name: 'never-updated',
        space: 'spc_3',
        git: { repo: './never', branch: 'main' },
        merge: { enabled: true, approvals: 0 },
        changeRequest: { autoUpdate: 'never' },
      },
      {
        name: 'two-way',
        space: 'spc_4',
        direction: 'both',
        git: { repo: './two-way', branch: 'main' },
        merge: { enabled: true, approvals: 0 },
      },
    ],
  }),
  'docsync.yaml',
  { GH_TOKEN: 'token' },
);

const SPACES: Record<string, string> = {
  docs: 'spc_1',
  manual: 'spc_2',
  'never-updated': 'spc_3',
  'two-way': 'spc_4',
};

function payloadOf(mapping: string) {
  return { mapping, space: SPACES[mapping] ?? 'spc_x', changeRequest: 'cr_1', revision: 'rev-cr-1' };
}

/** A change request approved at its revision, as every read of the script answers it unless told. */
const approved = changeRequestOf();
const approvals = [approvalOf(approved.revision)];

function world(script: ChangeRequestScript, dryRun = false) {
  const service = fakeChangeRequests(script);
  const { queues, added } = recordingQueues();
  const services: MergeChangeRequestServices = {
    config,
    api: service.api,
    stores: memoryStores(() => NOW),
    queues,
    now: () => NOW,
    dryRun,
  };
  const job = fakeJobRun({ name: 'merge-change-request', queue: 'maintain' });
  return { ctx: { ...services, ...job.run }, services, service, added, outcomes: job.outcomes };
}

describe('merge-change-request job', () => {
  it('records every reason a change request may not be merged, for /status', async () => {
    const { ctx, services, service } = world({ reads: [changeRequestOf()] });
    const result = await mergeChangeRequestJob.run(ctx, payloadOf('manual'));
    expect(result).toEqual({ result: 'not-mergeable', reasons: ['merge disabled', 'needs 1 more approval'] });
    expect(await services.stores.verdicts.list('manual')).toEqual([
      {
        changeRequest: 'cr_1',
        number: 7,
        subject: approved.subject,
        revision: 'rev-cr-1',
        mergeable: false,
        reasons: ['merge disabled', 'needs 1 more approval'],
        at: NOW.toISOString(),
      },
    ]);
    expect(service.calls).not.toContain('merge');
  });

  it('records no verdict in a dry run', async () => {
    const { ctx, services } = world({ reads: [changeRequestOf()] }, true);
    expect(await mergeChangeRequestJob.run(ctx, payloadOf('manual'))).toMatchObject({
      result: 'not-mergeable',
    });
    expect(await services.stores.verdicts.list('manual')).toEqual([]);
  });

  it('updates a change request held back only by its age, and leaves its merge to the next poll', async () => {
    const { ctx, services, service, added } = world({
      reads: [changeRequestOf({ outdated: true })],
      reviews: approvals,
      update: async () => ({ result: 'update', revision: 'rev-cr-2' }),
    });
    await services.stores.mappings.recordRevisionOrigin('spc_1', 'rev-cr-1', {
      kind: 'import',
      mapping: 'docs',
      sha: SHA,
    });
    expect(await mergeChangeRequestJob.run(ctx, payloadOf('docs'))).toEqual({
      result: 'updated',
      revision: 'rev-cr-2',
    });
    expect(service.calls).toEqual(['get', 'reviews', 'update']);
    expect(await services.stores.mappings.revisionOrigin('spc_1', 'rev-cr-2')).toMatchObject({
      kind: 'update',
      sha: SHA,
    });
    expect(added.map((job) => job.name)).toEqual(['check-links']);
    expect((await services.stores.verdicts.list('docs'))[0]?.reasons).toEqual([...MERGE_REASONS.updated]);
  });

  it('records the conflict of an update before merging', async () => {
    const { ctx, services } = world({
      reads: [changeRequestOf({ outdated: true })],
      reviews: approvals,
      update: async () => ({ result: 'conflicts', revision: 'rev-cr-1' }),
    });
    expect(await mergeChangeRequestJob.run(ctx, payloadOf('docs'))).toEqual({ result: 'conflicts' });
    expect((await services.stores.verdicts.list('docs'))[0]?.reasons).toEqual([
      ...MERGE_REASONS.updateConflicts,
    ]);
  });

  it('does not update an outdated change request when the mapping says never, nor in a dry run', async () => {
    const never = world({ reads: [changeRequestOf({ outdated: true })] });
    expect(await mergeChangeRequestJob.run(never.ctx, payloadOf('never-updated'))).toEqual({
      result: 'not-mergeable',
      reasons: ['outdated'],
    });
    const dry = world({ reads: [changeRequestOf({ outdated: true })], reviews: approvals }, true);
    expect(await mergeChangeRequestJob.run(dry.ctx, payloadOf('docs'))).toEqual({
      result: 'not-mergeable',
      reasons: ['outdated'],
    });
    expect([...never.service.calls, ...dry.service.calls]).not.toContain('update');
  });

  it('only says it would merge in a dry run', async () => {
    const { ctx, service, added } = world({ reads: [approved], reviews: approvals }, true);
    expect(await mergeChangeRequestJob.run(ctx, payloadOf('docs'))).toEqual({ result: 'dry-run' });
    expect(service.calls).not.toContain('merge');
    expect(added).toEqual([]);
  });

  it('does not merge a change request that moved while it was judged', async () => {
    const { ctx, service } = world({
      reads: [approved, changeRequestOf({ revision: 'rev-cr-2', updatedAt: '2026-03-01T11:59:00Z' })],
      reviews: approvals,
    });
    expect(await mergeChangeRequestJob.run(ctx, payloadOf('docs'))).toEqual({ result: 'moved' });
    expect(service.calls).toEqual(['get', 'reviews', 'get']);
  });

  it('keeps a refusal of the service as the verdict, for the next poll to judge again', async () => {
    const { ctx, services } = world({
      reads: [approved],
      reviews: approvals,
      merge: async () => {
        throw new ApiError({
          code: 'API_HTTP_ERROR',
          message: 'the service answered 409',
          method: 'POST',
          path: '/spaces/spc_1/change-requests/cr_1/merge',
          status: 409,
        });
      },
    });
    expect(await mergeChangeRequestJob.run(ctx, payloadOf('docs'))).toEqual({
      result: 'merge-refused',
      status: 409,
    });
    expect((await services.stores.verdicts.list('docs'))[0]?.reasons).toEqual([
      ...MERGE_REASONS.refused(409),
    ]);
  });

  it('lets any other failure of the merge fail the job, for the queue to retry', async () => {
    const { ctx } = world({
      reads: [approved],
      reviews: approvals,
      merge: async () => {
        throw new ApiError({ code: 'API_NETWORK_ERROR', message: 'reset', method: 'POST', path: '/m' });
      },
    });
    await expect(mergeChangeRequestJob.run(ctx, payloadOf('docs'))).rejects.toMatchObject({
      code: 'API_NETWORK_ERROR',
    });
  });

  it('records a merge that conflicts', async () => {
    const { ctx, services } = world({
      reads: [approved],
      reviews: approvals,
      merge: async () => ({ result: 'conflicts', revision: 'rev-main-1' }),
    });
    expect(await mergeChangeRequestJob.run(ctx, payloadOf('docs'))).toEqual({ result: 'conflicts' });
    expect((await services.stores.verdicts.list('docs'))[0]?.reasons).toEqual([
      ...MERGE_REASONS.mergeConflicts,
    ]);
  });

  it('after a merge: its revision is docsync own, the merge is kept, links and the commit status queued', async () => {
    const { ctx, services, added, outcomes } = world({
      reads: [approved],
      reviews: approvals,
      merge: async () => ({ result: 'merge', revision: 'rev-main-1' }),
    });
    await services.stores.mappings.recordRevisionOrigin('spc_1', 'rev-cr-1', {
      kind: 'import',
      mapping: 'docs',
      sha: SHA,
      changeRequest: 'cr_1',
    });
    expect(await mergeChangeRequestJob.run(ctx, payloadOf('docs'))).toEqual({
      result: 'merged',
      revision: 'rev-main-1',
      number: 7,
    });
    expect(await services.stores.mappings.revisionOrigin('spc_1', 'rev-main-1')).toMatchObject({
      kind: 'merge',
      sha: SHA,
    });
    expect((await services.stores.mappings.get('docs')).lastMerge).toEqual({
      at: NOW.toISOString(),
      changeRequest: { id: 'cr_1', number: 7, subject: approved.subject },
      revision: 'rev-main-1',
    });
    expect(added.map(({ name, data }) => ({ name, data }))).toEqual([
      { name: 'check-links', data: { space: 'spc_1', revision: 'rev-main-1' } },
      {
        name: 'report-commit-status',
        data: { mapping: 'docs', sha: SHA, event: 'merged', changeRequest: 'cr_1' },
      },
    ]);
    expect(outcomes).toEqual([]);
  });

  it('defers the merge of a two-way mapping while the space holds edits not yet exported', async () => {
    const { ctx, services, service } = world({ reads: [approved] });
    await services.stores.mappings.update('two-way', { exportQueued: 'rev-edit' });
    expect(await mergeChangeRequestJob.run(ctx, payloadOf('two-way'))).toEqual({
      result: 'deferred',
      revision: 'rev-edit',
    });
    expect(service.calls).not.toContain('merge');
  });

  it('tells people of a merge, an update, a conflict and a refusal', () => {
    type Outcome = Parameters<NonNullable<typeof mergeChangeRequestJob.describe>>[0];
    const describe = (outcome: Outcome) => mergeChangeRequestJob.describe?.(outcome, payloadOf('docs'));
    expect(describe({ result: 'merged', revision: 'rev-main-1', number: 7 })).toBe(
      'merged change request #7',
    );
    expect(describe({ result: 'updated', revision: 'rev-cr-2' })).toBe(
      'updated an outdated change request before merging it',
    );
    expect(describe({ result: 'conflicts' })).toBe(
      'a change request conflicts with the main content: a person must resolve it',
    );
    expect(describe({ result: 'merge-refused', status: 409 })).toBe(
      'the service refused to merge a change request (409)',
    );
    expect(describe({ result: 'moved' })).toBeUndefined();
  });
});
