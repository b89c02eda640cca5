// poll-change-requests: list a mapping's space's open change requests (every page), refresh the
// merge verdict of each one docsync manages, and queue what each needs (planUpkeep): an update
// when it is outdated and the policy updates always, a merge attempt when merging is enabled
// (checked again on fresh reads by the merge job). Run by a job scheduler per mapping. Its cost is
// the list: docsync's own state is read in one MGET per poll, and each kind of job queued in one
// addBulk (src/upkeep/judge-polled-change-requests.ts), after one read of which of those jobs
// finished already (two ZMSCOREs, whatever their number: src/queue/add-work.ts).
import type { ChangeRequest } from '../src/api/schemas/change-request-schema.js';
import { subjectMarker } from '../src/import/change-request-subject.js';
import { defineJob } from '../src/queue/job-definition.js';
import { checkLinksKind } from '../src/queue/kinds/check-links-kind.js';
import { mergeChangeRequestKind } from '../src/queue/kinds/merge-change-request-kind.js';
import { pollChangeRequestsKind } from '../src/queue/kinds/poll-change-requests-kind.js';
import { updateChangeRequestKind } from '../src/queue/kinds/update-change-request-kind.js';
import { recordMappingFailure, recordMappingSuccess } from '../src/state/record-failure.js';
import type { StoredVerdict } from '../src/state/verdict-store.js';
import {
  judgePolledChangeRequests,
  type PolledJudgement,
} from '../src/upkeep/judge-polled-change-requests.js';
import { requireApi, requireMapping } from './job-requirements.js';

export const pollChangeRequestsJob = defineJob(pollChangeRequestsKind, {
  // A refused token, a missing space: counted in /status as failures in a row until a poll goes through.
  onFailure: (ctx, payload, error) => recordMappingFailure(ctx, payload.mapping, error),
  onSuccess: (ctx, payload) => recordMappingSuccess(ctx, payload.mapping),
  async run(ctx, payload) {
    const mapping = requireMapping(ctx, payload.mapping);
    const api = requireApi(ctx);
    const manageAll = mapping.changeRequest.manage === 'all';
    // Only needed to pick docsync's own change requests: a hash, once per poll.
    const marker = manageAll ? '' : subjectMarker(mapping.name, mapping.git.branch);
    const listOpen = async (): Promise<ChangeRequest[]> => {
      const open: ChangeRequest[] = [];
      for await (const cr of api.changeRequests.listAll(mapping.space, {
        status: 'open',
        signal: ctx.signal,
      }))
        open.push(cr);
      return open;
    };
    // docsync's state and the list at once: the state only picks from what is listed. A state that
    // does not read fails the poll first, as when it was read before listing.
    const [stateRead, listed] = await Promise.allSettled([ctx.stores.mappings.get(mapping.name), listOpen()]);
    if (stateRead.status === 'rejected') throw stateRead.reason;
    if (listed.status === 'rejected') throw listed.reason;
    const state = stateRead.value;
    const managed = listed.value.filter(
      (cr) => manageAll || cr.id === state.changeRequestId || cr.subject.includes(marker),
    );
    // The change request docsync keeps may be a draft: drafts are not listed as open, but its
    // verdict ('draft') belongs in /status. One more read, only in that case.
    if (state.changeRequestId !== undefined && !managed.some((cr) => cr.id === state.changeRequestId)) {
      const kept = await api.changeRequests
        .get(mapping.space, state.changeRequestId, { signal: ctx.signal })
        .catch(() => undefined);
      if (kept?.status === 'draft') managed.push(kept);
    }
    const judged = await judgePolledChangeRequests(mapping, api, ctx.stores.links, managed, ctx.signal);
    const jobOf = ({ changeRequest: cr }: PolledJudgement) => ({
      payload: { mapping: mapping.name, space: mapping.space, changeRequest: cr.id, revision: cr.revision },
    });
    const updates = judged.filter((one) => one.actions.update).map(jobOf);
    const merges = judged.filter((one) => one.actions.merge).map(jobOf);
    const checks = judged
      .filter((one) => one.check)
      .map(({ changeRequest: cr }) => ({
        payload: {
          space: mapping.space,
          changeRequest: cr.id,
          revision: cr.revision,
          comment: mapping.links.comment,
        },
      }));
    const at = ctx.now().toISOString();
    const records = judged.map(
      ({ changeRequest: cr, verdict }): StoredVerdict => ({
        changeRequest: cr.id,
        number: cr.number,
        subject: cr.subject,
        revision: cr.revision,
        mergeable: verdict.mergeable,
        reasons: verdict.reasons,
        at,
      }),
    );
    // One addBulk per kind: link checks on their own queue meanwhile; on maintain, each change
    // request's update is still queued before its merge attempt. The verdicts are written at the
    // same time: /status reads them, no job does.
    // Settled, all of them, before the job ends: a write still on its way after a failed enqueue
    // could land after the next poll's.
    const written = await Promise.allSettled([
      checks.length > 0 ? checkLinksKind.enqueueBulk(ctx.queues, checks) : undefined,
      (async () => {
        if (updates.length > 0) await updateChangeRequestKind.enqueueBulk(ctx.queues, updates);
        if (merges.length > 0) await mergeChangeRequestKind.enqueueBulk(ctx.queues, merges);
      })(),
      ctx.dryRun ? undefined : ctx.stores.verdicts.replace(mapping.name, records),
    ]);
    for (const outcome of written) if (outcome.status === 'rejected') throw outcome.reason;
    return { result: 'polled', managed: managed.length, updates: updates.length, merges: merges.length };
  },
});
