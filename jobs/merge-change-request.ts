// merge-change-request: merge a change request the policy allows, checked again on fresh reads
// right before merging, never on the poll's stale view. An outdated one is updated first (when
// the policy allows) and left for the next poll to judge again: approvals of the old revision no
// longer count. After a merge: record the merged revision as docsync's own and check the space's links.
import { ApiError } from '../src/api/api-error.js';
import { DocsyncError } from '../src/errors/docsync-error.js';
import { defineJob } from '../src/queue/job-definition.js';
import { jobId } from '../src/queue/job-id.js';
import { LinkCheckStore } from '../src/state/link-check-store.js';
import { VerdictStore } from '../src/state/verdict-store.js';
import { mergeVerdict } from '../src/upkeep/merge-verdict.js';
import { readMergeFacts } from '../src/upkeep/read-merge-facts.js';
import { requireMapping } from './import-content.js';
import { changeRequestJobPayload } from './poll-change-requests.js';

export const mergeChangeRequestJob = defineJob({
  name: 'merge-change-request',
  queue: 'maintain',
  payload: changeRequestJobPayload,
  space: (payload) => payload.space,
  async run(ctx, payload) {
    const mapping = requireMapping(ctx, payload.mapping);
    const api = ctx.api;
    if (api === undefined)
      throw new DocsyncError(
        'SERVICE_NOT_CONFIGURED',
        'merge-change-request needs service.baseUrl and service.token',
      );
    const cr = await api.changeRequests.get(payload.space, payload.changeRequest, { signal: ctx.signal });
    const facts = await readMergeFacts(
      api,
      new LinkCheckStore(ctx.redis, ctx.config.redis.prefix),
      payload.space,
      cr,
      ctx.signal,
    );
    const verdict = mergeVerdict(mapping.merge, facts);
    const verdicts = new VerdictStore(ctx.redis, ctx.config.redis.prefix);
    const record = (mergeable: boolean, reasons: string[]) =>
      ctx.dryRun
        ? undefined
        : verdicts.set(mapping.name, {
            changeRequest: cr.id,
            number: cr.number,
            subject: cr.subject,
            revision: cr.revision,
            mergeable,
            reasons,
            at: ctx.now().toISOString(),
          });
    if (!verdict.mergeable) {
      const onlyOutdated = verdict.reasons.every((reason) => reason === 'outdated');
      if (onlyOutdated && mapping.changeRequest.autoUpdate !== 'never' && !ctx.dryRun) {
        const updated = await api.changeRequests.update(payload.space, cr.id, { signal: ctx.signal });
        await ctx.queues.get('links').add(
          'check-links',
          {
            space: payload.space,
            changeRequest: cr.id,
            revision: updated.revision,
            comment: mapping.links.comment,
          },
          { jobId: jobId('links', payload.space, cr.id, updated.revision) },
        );
        ctx.log.info(
          { cr: cr.id, revision: updated.revision },
          'outdated change request updated before merging; it is judged again on the next poll',
        );
        await record(false, ['outdated', 'updated: waiting for the next poll']);
        return { result: 'updated', revision: updated.revision };
      }
      await record(false, verdict.reasons);
      ctx.log.info({ cr: cr.id, reasons: verdict.reasons }, 'change request not merged');
      return { result: 'not-mergeable', reasons: verdict.reasons };
    }
    if (ctx.dryRun) {
      ctx.log.info({ cr: cr.id }, 'dry run: would merge the change request');
      return { result: 'dry-run' };
    }
    let merged: Awaited<ReturnType<typeof api.changeRequests.merge>>;
    try {
      merged = await api.changeRequests.merge(payload.space, cr.id, { signal: ctx.signal });
    } catch (error) {
      // The change request moved between the check and the merge: the next poll judges it again.
      if (error instanceof ApiError && (error.status === 409 || error.status === 400)) {
        ctx.log.warn(
          { cr: cr.id, status: error.status },
          'merge refused by the service; the change request is judged again on the next poll',
        );
        return { result: 'merge-refused', status: error.status };
      }
      throw error;
    }
    if (merged.result === 'conflicts') {
      await record(false, ['conflicts']);
      return { result: 'conflicts' };
    }
    await ctx.state.recordRevisionOrigin(payload.space, merged.revision, {
      kind: 'import',
      mapping: mapping.name,
    });
    await ctx.queues
      .get('links')
      .add(
        'check-links',
        { space: payload.space, revision: merged.revision },
        { jobId: jobId('links', payload.space, 'main', merged.revision) },
      );
    ctx.log.info({ cr: cr.id, number: cr.number, revision: merged.revision }, 'change request merged');
    return { result: 'merged', revision: merged.revision, number: cr.number };
  },
});
