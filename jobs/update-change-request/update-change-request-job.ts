// update-change-request: an outdated change request brought up to date with the main content,
// its revision's origin carried over and its links checked again.
import { updateAndCarry } from '../../src/upkeep/update-change-request.js';
import { defineJob } from '../define-job.js';
import { requireApi, requireMapping } from '../job-requirements.js';
import type { ServicesOf } from '../job-services.js';
import { updateChangeRequestKind } from './update-change-request-kind.js';

const NEEDS = ['config', 'api', 'stores', 'queues', 'dryRun'] as const;

/** What an update touches: the services the daemon hands it, and a unit test fakes. */
export type UpdateChangeRequestServices = ServicesOf<typeof NEEDS>;

export const updateChangeRequestJob = defineJob(updateChangeRequestKind, NEEDS, {
  // People wait for it: its reads of the service go before the scheduled polls'.
  servicePriority: 'high',
  lockKey: (payload) => payload.space,
  async run(ctx, payload) {
    const mapping = requireMapping(ctx, payload.mapping);
    const api = requireApi(ctx);
    const cr = await api.changeRequests.get(payload.space, payload.changeRequest, { signal: ctx.signal });
    if (!cr.outdated || (cr.status !== 'open' && cr.status !== 'draft'))
      return { result: 'current', revision: cr.revision };
    if (ctx.dryRun) {
      ctx.log.info({ cr: cr.id }, 'dry run: would update the change request from the main content');
      return { result: 'dry-run' };
    }
    const updated = await updateAndCarry(
      { ...ctx, api },
      { mapping, space: payload.space, changeRequest: cr },
    );
    if (updated.result === 'conflicts') {
      ctx.log.warn(
        { cr: cr.id, revision: updated.revision },
        'change request could not be updated cleanly: a person must resolve its conflicts',
      );
      return { result: 'conflicts', revision: updated.revision };
    }
    ctx.log.info(
      { cr: cr.id, from: cr.revision, revision: updated.revision },
      'change request updated from the main content',
    );
    return { result: 'updated', revision: updated.revision };
  },
  describe(outcome, payload) {
    if (outcome.result === 'updated')
      return `updated change request ${payload.changeRequest} from the main content`;
    if (outcome.result === 'conflicts')
      return `change request ${payload.changeRequest} conflicts with the main content: a person must resolve it`;
    return undefined;
  },
});
