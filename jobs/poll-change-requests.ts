// poll-change-requests: list a mapping's space's open change requests (every page), refresh the
// merge verdict of each one docsync manages, and queue what each needs (planUpkeep): an update
// when it is outdated and the policy updates always, a merge attempt when merging is enabled
// (checked again on fresh reads by the merge job). Run by a job scheduler per mapping.
import type { ChangeRequest } from '../src/api/schemas/change-request-schema.js';
import { subjectMarker } from '../src/import/change-request-subject.js';
import { defineJob } from '../src/queue/job-definition.js';
import type { ChangeRequestJobPayload } from '../src/queue/kinds/change-request-job-payload.js';
import { checkLinksKind } from '../src/queue/kinds/check-links-kind.js';
import { mergeChangeRequestKind } from '../src/queue/kinds/merge-change-request-kind.js';
import { pollChangeRequestsKind } from '../src/queue/kinds/poll-change-requests-kind.js';
import { updateChangeRequestKind } from '../src/queue/kinds/update-change-request-kind.js';
import { recordMappingFailure, recordMappingSuccess } from '../src/state/record-failure.js';
import type { StoredVerdict } from '../src/state/verdict-store.js';
import { type MergeVerdict, mergeVerdict } from '../src/upkeep/merge-verdict.js';
import { planUpkeep } from '../src/upkeep/plan-upkeep.js';
import { readMergeFacts } from '../src/upkeep/read-merge-facts.js';
import { requireApi, requireMapping } from './job-requirements.js';

const MERGE_DISABLED: MergeVerdict = { mergeable: false, reasons: ['merge disabled'] };

export const pollChangeRequestsJob = defineJob(pollChangeRequestsKind, {
  // A refused token, a missing space: counted in /status as failures in a row until a poll goes through.
  onFailure: (ctx, payload, error) => recordMappingFailure(ctx, payload.mapping, error),
  onSuccess: (ctx, payload) => recordMappingSuccess(ctx, payload.mapping),
  async run(ctx, payload) {
    const mapping = requireMapping(ctx, payload.mapping);
    const api = requireApi(ctx);
    const state = await ctx.stores.mappings.get(mapping.name);
    const marker = subjectMarker(mapping.name, mapping.git.branch);
    const managed: ChangeRequest[] = [];
    for await (const cr of api.changeRequests.listAll(mapping.space, {
      status: 'open',
      signal: ctx.signal,
    })) {
      if (
        mapping.changeRequest.manage === 'all' ||
        cr.id === state.changeRequestId ||
        cr.subject.includes(marker)
      )
        managed.push(cr);
    }
    // The change request docsync keeps may be a draft: drafts are not listed as open, but its
    // verdict ('draft') belongs in /status. One more read, only in that case.
    if (state.changeRequestId !== undefined && !managed.some((cr) => cr.id === state.changeRequestId)) {
      const kept = await api.changeRequests
        .get(mapping.space, state.changeRequestId, { signal: ctx.signal })
        .catch(() => undefined);
      if (kept?.status === 'draft') managed.push(kept);
    }
    const { links } = ctx.stores;
    const verdicts: StoredVerdict[] = [];
    let updates = 0;
    let merges = 0;
    for (const cr of managed) {
      const job: ChangeRequestJobPayload = {
        mapping: mapping.name,
        space: mapping.space,
        changeRequest: cr.id,
        revision: cr.revision,
      };
      const verdict = mapping.merge.enabled
        ? mergeVerdict(mapping.merge, await readMergeFacts(api, links, mapping.space, cr, ctx.signal))
        : MERGE_DISABLED;
      const actions = planUpkeep(mapping, cr.outdated, verdict);
      // A revision no link check has seen yet (a person's edit in the service, a change request
      // docsync did not import): check it, so `links not checked yet` never sticks.
      if (
        (mapping.merge.noBrokenLinks || mapping.links.comment) &&
        (await links.get(mapping.space, cr.id))?.revision !== cr.revision
      ) {
        await checkLinksKind.enqueue(ctx.queues, {
          space: mapping.space,
          changeRequest: cr.id,
          revision: cr.revision,
          comment: mapping.links.comment,
        });
      }
      if (actions.update) {
        await updateChangeRequestKind.enqueue(ctx.queues, job);
        updates += 1;
      }
      if (actions.merge) {
        await mergeChangeRequestKind.enqueue(ctx.queues, job);
        merges += 1;
      }
      verdicts.push({
        changeRequest: cr.id,
        number: cr.number,
        subject: cr.subject,
        revision: cr.revision,
        mergeable: verdict.mergeable,
        reasons: verdict.reasons,
        at: ctx.now().toISOString(),
      });
    }
    if (!ctx.dryRun) await ctx.stores.verdicts.replace(mapping.name, verdicts);
    return { result: 'polled', managed: managed.length, updates, merges };
  },
});
