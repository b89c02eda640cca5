// merge-change-request: merge a change request the policy allows, judged again on fresh reads right
// before merging, never on the poll's stale view; a change request that moved while it was judged is
// left for the next poll. An outdated one is updated first (when the policy allows) and judged on
// the next poll: approvals of the old revision no longer count. After a merge: record the merged
// revision as docsync's own when its content was, and check the space's links. A two-way mapping's
// merge waits, as its imports do, while the space holds edits not yet exported.

import { queueCommitStatusOfRevision } from '../src/commit-status/queue-commit-status.js';
import { unexportedRevision } from '../src/import/unexported-revision.js';
import { defineJob } from '../src/queue/job-definition.js';
import { checkLinksKind } from '../src/queue/kinds/check-links-kind.js';
import { mergeChangeRequestKind } from '../src/queue/kinds/merge-change-request-kind.js';
import { recordMappingFailure, recordMappingSuccess } from '../src/state/record-failure.js';
import { carryOrigin } from '../src/upkeep/docsync-revision.js';
import { mergeVerdict } from '../src/upkeep/merge-verdict.js';
import { MERGE_REASONS, mergeRefusal, movedWhileJudged, planMerge } from '../src/upkeep/plan-merge.js';
import { readMergeFacts } from '../src/upkeep/read-merge-facts.js';
import { updateAndCarry } from '../src/upkeep/update-change-request.js';
import { requireApi, requireMapping } from './job-requirements.js';

export const mergeChangeRequestJob = defineJob(mergeChangeRequestKind, {
  lockKey: (payload) => payload.space,
  onFailure: (ctx, payload, error) => recordMappingFailure(ctx, payload.mapping, error),
  onSuccess: (ctx, payload) => recordMappingSuccess(ctx, payload.mapping),
  async run(ctx, payload) {
    const mapping = requireMapping(ctx, payload.mapping);
    const api = requireApi(ctx);
    const options = { signal: ctx.signal };
    const cr = await api.changeRequests.get(payload.space, payload.changeRequest, options);
    const verdict = mergeVerdict(
      mapping.merge,
      await readMergeFacts(api, ctx.stores.links, payload.space, cr, ctx.signal),
    );
    const { verdicts } = ctx.stores;
    const record = async (reasons: readonly string[]) => {
      if (!ctx.dryRun)
        await verdicts.set(mapping.name, {
          changeRequest: cr.id,
          number: cr.number,
          subject: cr.subject,
          revision: cr.revision,
          mergeable: false,
          reasons: [...reasons],
          at: ctx.now().toISOString(),
        });
    };

    const plan = planMerge(verdict, mapping.changeRequest.autoUpdate, ctx.dryRun);
    switch (plan.kind) {
      case 'not-mergeable':
        await record(plan.reasons);
        ctx.log.info({ cr: cr.id, reasons: plan.reasons }, 'change request not merged');
        return { result: 'not-mergeable', reasons: plan.reasons };
      case 'update-first': {
        const updated = await updateAndCarry(
          { ...ctx, api },
          { mapping, space: payload.space, changeRequest: cr },
        );
        if (updated.result === 'conflicts') {
          await record(MERGE_REASONS.updateConflicts);
          return { result: 'conflicts' };
        }
        ctx.log.info(
          { cr: cr.id, revision: updated.revision },
          'outdated change request updated before merging; it is judged again on the next poll',
        );
        await record(MERGE_REASONS.updated);
        return { result: 'updated', revision: updated.revision };
      }
      case 'dry-run':
        ctx.log.info({ cr: cr.id }, 'dry run: would merge the change request');
        return { result: 'dry-run' };
      case 'merge':
        break;
    }
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
        return { result: 'deferred', revision: pending };
      }
    }
    // Reviews, comments and links took time to read: merge only what was judged.
    const now = await api.changeRequests.get(payload.space, cr.id, options);
    if (movedWhileJudged(cr, now)) {
      ctx.log.info(
        { cr: cr.id },
        'change request moved while it was judged; it is judged again on the next poll',
      );
      return { result: 'moved' };
    }
    let merged: Awaited<ReturnType<typeof api.changeRequests.merge>>;
    try {
      merged = await api.changeRequests.merge(payload.space, cr.id, options);
    } catch (error) {
      const status = mergeRefusal(error);
      if (status === undefined) throw error;
      await record(MERGE_REASONS.refused(status));
      ctx.log.warn(
        { cr: cr.id, status },
        'merge refused by the service; the change request is judged again on the next poll',
      );
      return { result: 'merge-refused', status };
    }
    if (merged.result === 'conflicts') {
      await record(MERGE_REASONS.mergeConflicts);
      return { result: 'conflicts' };
    }
    const ours = await carryOrigin(ctx.stores.mappings, payload.space, cr.revision, merged.revision, {
      kind: 'merge',
      mapping: mapping.name,
    });
    await ctx.stores.mappings.update(mapping.name, {
      lastMerge: {
        at: ctx.now().toISOString(),
        changeRequest: { id: cr.id, number: cr.number, subject: cr.subject },
        revision: merged.revision,
      },
    });
    await checkLinksKind.enqueue(ctx.queues, { space: payload.space, revision: merged.revision });
    await queueCommitStatusOfRevision(ctx, payload.space, cr.revision, {
      event: 'merged',
      changeRequest: cr.id,
    });
    ctx.log.info(
      { cr: cr.id, number: cr.number, revision: merged.revision, docsyncContent: ours },
      'change request merged',
    );
    return { result: 'merged', revision: merged.revision, number: cr.number };
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
