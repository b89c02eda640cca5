// merge-change-request: merge a change request the policy allows, judged again on fresh reads right
// before merging, never on the poll's stale view; a change request that moved while it was judged is
// left for the next poll. An outdated one is updated first (when the policy allows) and judged on
// the next poll: approvals of the old revision no longer count. After a merge: record the merged
// revision as docsync's own when its content was, and check the space's links. A two-way mapping's
// merge waits, as its imports do, while the space holds edits not yet exported.

import type { DocsApiClient } from '../../src/api/docs-api-client.js';
import type { ChangeRequest } from '../../src/api/schemas/change-request-schema.js';
import { queueCommitStatusOfRevision } from '../../src/commit-status/queue-commit-status.js';
import type { MappingConfig } from '../../src/config/mapping-schema.js';
import { unexportedRevision } from '../../src/import/unexported-revision.js';
import type { JobContext } from '../../src/queue/job-definition.js';
import { carryOrigin } from '../../src/upkeep/docsync-revision.js';
import { mergeVerdict } from '../../src/upkeep/merge-verdict.js';
import { MERGE_REASONS, mergeRefusal, movedWhileJudged, planMerge } from '../../src/upkeep/plan-merge.js';
import { readMergeFacts } from '../../src/upkeep/read-merge-facts.js';
import { updateAndCarry } from '../../src/upkeep/update-change-request.js';
import { checkLinksKind } from '../check-links/check-links-kind.js';
import { defineJob } from '../define-job.js';
import { requireApi, requireMapping } from '../job-requirements.js';
import type { ServicesOf } from '../job-services.js';
import { mergeChangeRequestKind } from './merge-change-request-kind.js';

const NEEDS = ['config', 'api', 'stores', 'queues', 'now', 'dryRun'] as const;

/** What a merge touches: the services the daemon hands it, and a unit test fakes. */
export type MergeChangeRequestServices = ServicesOf<typeof NEEDS>;

export const mergeChangeRequestJob = defineJob(mergeChangeRequestKind, NEEDS, {
  // People wait for it: its reads of the service go before the scheduled polls'.
  servicePriority: 'high',
  lockKey: (payload) => payload.space,
  async run(ctx, payload) {
    const mapping = requireMapping(ctx, payload.mapping);
    const api = requireApi(ctx);
    const cr = await api.changeRequests.get(payload.space, payload.changeRequest, { signal: ctx.signal });
    const verdict = mergeVerdict(
      mapping.merge,
      await readMergeFacts(api, ctx.stores.links, payload.space, cr, ctx.signal),
    );
    const judged: Judged = { ctx, api, mapping, space: payload.space, cr };
    const plan = planMerge(verdict, mapping.changeRequest.autoUpdate, ctx.dryRun);
    switch (plan.kind) {
      case 'not-mergeable':
        await recordNotMerged(judged, plan.reasons);
        ctx.log.info({ cr: cr.id, reasons: plan.reasons }, 'change request not merged');
        return { result: 'not-mergeable', reasons: plan.reasons } as const;
      case 'update-first': {
        const updated = await updateAndCarry(
          { ...ctx, api },
          { mapping, space: payload.space, changeRequest: cr },
        );
        if (updated.result === 'conflicts') {
          await recordNotMerged(judged, MERGE_REASONS.updateConflicts);
          return { result: 'conflicts' } as const;
        }
        ctx.log.info(
          { cr: cr.id, revision: updated.revision },
          'outdated change request updated before merging; it is judged again on the next poll',
        );
        await recordNotMerged(judged, MERGE_REASONS.updated);
        return { result: 'updated', revision: updated.revision } as const;
      }
      case 'dry-run':
        ctx.log.info({ cr: cr.id }, 'dry run: would merge the change request');
        return { result: 'dry-run' } as const;
      case 'merge':
        return await mergeJudged(judged);
    }
  },
  describe(outcome) {
    switch (outcome.result) {
      case 'merged':
        return `merged change request #${outcome.number}`;
      case 'updated':
        return 'updated an outdated change request before merging it';
      case 'conflicts':
        return 'a change request conflicts with the main content: a person must resolve it';
      case 'merge-refused':
        return `the service refused to merge a change request (${outcome.status})`;
      default:
        return undefined;
    }
  },
});

/** A change request judged mergeable or not, with what its merge needs. */
interface Judged {
  ctx: JobContext<MergeChangeRequestServices>;
  api: DocsApiClient;
  mapping: MappingConfig;
  space: string;
  /** The change request as it was judged. */
  cr: ChangeRequest;
}

/** The verdict for /status: why the change request was not merged (never in a dry run). */
async function recordNotMerged({ ctx, mapping, cr }: Judged, reasons: readonly string[]): Promise<void> {
  if (ctx.dryRun) return;
  await ctx.stores.verdicts.set(mapping.name, {
    changeRequest: cr.id,
    number: cr.number,
    subject: cr.subject,
    revision: cr.revision,
    mergeable: false,
    reasons: [...reasons],
    at: ctx.now().toISOString(),
  });
}

/** Merges a change request judged mergeable, unless the space or the change request moved meanwhile. */
async function mergeJudged(judged: Judged) {
  const { ctx, api, mapping, space, cr } = judged;
  // Two-way: an edit made in the service since the space poll last looked is in the change
  // request's base now (it is up to date), so the merge would carry it into a revision of
  // docsync's, which the space poll does not export: the next import would take it out again.
  if (mapping.direction === 'both') {
    const state = await ctx.stores.mappings.get(mapping.name);
    const pending = await unexportedRevision(
      { api, state: ctx.stores.mappings, signal: ctx.signal },
      mapping,
      state,
    );
    if (pending !== undefined) {
      ctx.log.info(
        { cr: cr.id, revision: pending },
        'the space has edits not yet in git: merge deferred until their export',
      );
      return { result: 'deferred', revision: pending } as const;
    }
  }
  // Reviews, comments and links took time to read: merge only what was judged.
  const now = await api.changeRequests.get(space, cr.id, { signal: ctx.signal });
  if (movedWhileJudged(cr, now)) {
    ctx.log.info(
      { cr: cr.id },
      'change request moved while it was judged; it is judged again on the next poll',
    );
    return { result: 'moved' } as const;
  }
  let merged: Awaited<ReturnType<typeof api.changeRequests.merge>>;
  try {
    merged = await api.changeRequests.merge(space, cr.id, { signal: ctx.signal });
  } catch (error) {
    const status = mergeRefusal(error);
    if (status === undefined) throw error;
    await recordNotMerged(judged, MERGE_REASONS.refused(status));
    ctx.log.warn(
      { cr: cr.id, status },
      'merge refused by the service; the change request is judged again on the next poll',
    );
    return { result: 'merge-refused', status } as const;
  }
  if (merged.result === 'conflicts') {
    await recordNotMerged(judged, MERGE_REASONS.mergeConflicts);
    return { result: 'conflicts' } as const;
  }
  return await recordMerge(judged, merged.revision);
}

/**
 * After a merge: the merged revision recorded as docsync's own when its content was, the mapping's
 * last merge, the space's link check and the commit status queued.
 */
async function recordMerge({ ctx, mapping, space, cr }: Judged, revision: string) {
  const ours = await carryOrigin(ctx.stores.mappings, space, cr.revision, revision, {
    kind: 'merge',
    mapping: mapping.name,
  });
  await ctx.stores.mappings.update(mapping.name, {
    lastMerge: {
      at: ctx.now().toISOString(),
      changeRequest: { id: cr.id, number: cr.number, subject: cr.subject },
      revision,
    },
  });
  await checkLinksKind.enqueue(ctx.queues, { space, revision });
  await queueCommitStatusOfRevision(ctx, space, cr.revision, { event: 'merged', changeRequest: cr.id });
  ctx.log.info({ cr: cr.id, number: cr.number, revision, docsyncContent: ours }, 'change request merged');
  return { result: 'merged', revision, number: cr.number } as const;
}
