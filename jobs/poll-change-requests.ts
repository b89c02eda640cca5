// poll-change-requests: list a mapping's space's open change requests (every page), refresh the
// merge verdict of each one docsync manages, and queue what each needs (planUpkeep): an update
// when it is outdated and the policy updates always, a merge attempt when merging is enabled
// (checked again on fresh reads by the merge job). Run by a job scheduler per mapping.
import { z } from 'zod';
import type { ChangeRequest } from '../src/api/schemas/change-request-schema.js';
import { subjectMarker } from '../src/import/change-request-subject.js';
import { defineJob } from '../src/queue/job-definition.js';
import { jobId } from '../src/queue/job-id.js';
import { LinkCheckStore } from '../src/state/link-check-store.js';
import { type StoredVerdict, VerdictStore } from '../src/state/verdict-store.js';
import { type MergeVerdict, mergeVerdict } from '../src/upkeep/merge-verdict.js';
import { planUpkeep } from '../src/upkeep/plan-upkeep.js';
import { readMergeFacts } from '../src/upkeep/read-merge-facts.js';
import { queueLinkCheck } from './check-links.js';
import { requireApi, requireMapping } from './job-requirements.js';

export const changeRequestJobPayload = z.object({
  mapping: z.string(),
  space: z.string(),
  changeRequest: z.string(),
  revision: z.string(),
});
export type ChangeRequestJobPayload = z.infer<typeof changeRequestJobPayload>;

/**
 * Update and merge jobs are keyed by revision so that processes polling together queue one; once
 * done they are forgotten, so the next poll can try again when something else changed (a request
 * for changes withdrawn) at the same revision.
 */
const ONCE_DONE_FORGET = { removeOnComplete: true, removeOnFail: true } as const;

const MERGE_DISABLED: MergeVerdict = { mergeable: false, reasons: ['merge disabled'] };

export const pollChangeRequestsJob = defineJob({
  name: 'poll-change-requests',
  queue: 'maintain',
  payload: z.object({ mapping: z.string() }),
  async run(ctx, payload) {
    const mapping = requireMapping(ctx, payload.mapping);
    const api = requireApi(ctx);
    const state = await ctx.state.get(mapping.name);
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
    const links = new LinkCheckStore(ctx.redis, ctx.config.redis.prefix);
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
        await queueLinkCheck(ctx.queues, {
          space: mapping.space,
          changeRequest: cr.id,
          revision: cr.revision,
          comment: mapping.links.comment,
        });
      }
      if (actions.update) {
        await ctx.queues.get('maintain').add('update-change-request', job, {
          jobId: jobId('update', mapping.space, cr.id, cr.revision),
          ...ONCE_DONE_FORGET,
        });
        updates += 1;
      }
      if (actions.merge) {
        await ctx.queues.get('maintain').add('merge-change-request', job, {
          jobId: jobId('merge', mapping.space, cr.id, cr.revision),
          ...ONCE_DONE_FORGET,
        });
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
    if (!ctx.dryRun)
      await new VerdictStore(ctx.redis, ctx.config.redis.prefix).replace(mapping.name, verdicts);
    return { result: 'polled', managed: managed.length, updates, merges };
  },
});
