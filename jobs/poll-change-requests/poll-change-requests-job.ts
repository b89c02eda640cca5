// poll-change-requests: list a mapping's space's open change requests (every page), refresh the
// merge verdict of each one docsync manages, and queue what each needs (planUpkeep): an update
// when it is outdated and the policy updates always, a merge attempt when merging is enabled
// (checked again on fresh reads by the merge job). Run by a job scheduler per mapping, or per batch
// of mappings polled at one interval when there are many (src/producers/change-request-poll-schedules.ts):
// a job costs Redis round trips and CPU of its own, about what listing one space costs. Its cost is
// the list: docsync's own state is read in one MGET per poll, and each kind of job queued in one
// addBulk (src/upkeep/judge-polled-change-requests.ts), after one read of which of those jobs
// finished already (two ZMSCOREs, whatever their number: src/queue/add-work.ts).
import type { DocsApiClient } from '../../src/api/docs-api-client.js';
import type { ChangeRequest } from '../../src/api/schemas/change-request-schema.js';
import { SharedLimit } from '../../src/concurrency/shared-limit.js';
import { mappingByName } from '../../src/config/mapping-by-name.js';
import { subjectMarker } from '../../src/import/change-request-subject.js';
import type { JobContext } from '../../src/queue/job-definition.js';
import { rateLimitPauseMs } from '../../src/queue/retry-policy.js';
import type { StoredVerdict } from '../../src/state/verdict-store.js';
import {
  judgePolledChangeRequests,
  type PolledJudgement,
} from '../../src/upkeep/judge-polled-change-requests.js';
import { checkLinksKind } from '../check-links/check-links-kind.js';
import { defineJob } from '../define-job.js';
import { requireApi, requireMapping } from '../job-requirements.js';
import type { ServicesOf } from '../job-services.js';
import { mergeChangeRequestKind } from '../merge-change-request/merge-change-request-kind.js';
import { type MappingPolled, pollEachMapping } from '../poll-each-mapping.js';
import { updateChangeRequestKind } from '../update-change-request/update-change-request-kind.js';
import { pollChangeRequestsKind } from './poll-change-requests-kind.js';

/** Mappings of a batch polled at once: a batch job is one of the queue's slots, not one list. */
export const BATCH_PARALLEL_POLLS = 8;

/**
 * Mappings of all batches polled at once in this process, per connection to the service (the
 * client's pool): enough to keep every connection busy while the others' answers are judged, and no
 * queue of waiting requests inside docsync that would eat into their deadlines (a slow service, 16
 * batch jobs with merge verdicts: a thousand requests waiting for 8 connections).
 */
export const POLLS_PER_CONNECTION = 2;

/** The limit of the batch polls that share one service client. */
const pollLimits = new WeakMap<DocsApiClient, SharedLimit>();

function pollLimitOf(api: DocsApiClient): SharedLimit {
  let limit = pollLimits.get(api);
  if (limit === undefined) {
    limit = new SharedLimit(POLLS_PER_CONNECTION * api.connections);
    pollLimits.set(api, limit);
  }
  return limit;
}

const NEEDS = ['config', 'api', 'stores', 'queues', 'now', 'dryRun', 'metrics'] as const;

/** What a poll touches: the service, docsync's state, the queues of the upkeep it asks for, metrics. */
export type PollChangeRequestsServices = ServicesOf<typeof NEEDS>;

type PollContext = JobContext<PollChangeRequestsServices>;

type MappingPoll = { result: 'polled'; managed: number; updates: number; merges: number };

export const pollChangeRequestsJob = defineJob(pollChangeRequestsKind, NEEDS, {
  // A refused token, a missing space: counted in /status as failures in a row until a poll goes
  // through (the runner records a single mapping's; a batch records each of its mappings' itself).
  async run(ctx, payload) {
    if (!('mapping' in payload)) return pollBatch(ctx, payload.mappings);
    try {
      const { poll } = await pollMapping(ctx, payload.mapping);
      countPoll(ctx, payload.mapping, 'polled');
      return poll;
    } catch (error) {
      if (!endsTheJob(ctx, error)) countPoll(ctx, payload.mapping, 'failed');
      throw error;
    }
  },
});

/**
 * Each mapping of a batch polled, BATCH_PARALLEL_POLLS at once (and all batches of the process
 * together, POLLS_PER_CONNECTION per connection of the service client), its outcome recorded as the
 * runner records a job's (jobs/poll-each-mapping.ts): a rate limit or a stop ends the batch.
 */
async function pollBatch(ctx: PollContext, mappings: readonly string[]) {
  const totals = { mappings: mappings.length, failed: 0, managed: 0, updates: 0, merges: 0 };
  const limit = pollLimitOf(requireApi(ctx));
  let ended = false;
  const { failed } = await pollEachMapping<MappingPoll>(
    ctx,
    mappings.map((name) => [name]),
    {
      parallel: BATCH_PARALLEL_POLLS,
      poll: (name) => limit.run(async () => (ended ? undefined : pollMapping(ctx, name))),
      // Each error judged on its own: after a rate limit, another mapping's own failure is still its.
      endsTheJob: (error) => {
        const ends = endsTheJob(ctx, error);
        ended ||= ends;
        return ends;
      },
      polled: (name, poll) => {
        countPoll(ctx, name, 'polled');
        totals.managed += poll.managed;
        totals.updates += poll.updates;
        totals.merges += poll.merges;
      },
      failed: (name) => countPoll(ctx, name, 'failed'),
      messages: {
        permanent: 'change request poll of a mapping failed',
        transient: 'change request poll of a mapping failed, next tick polls again',
      },
    },
  );
  return { result: 'polled' as const, ...totals, failed };
}

/**
 * One mapping's poll in /metrics. A name from a payload that the configuration does not have (a job
 * queued before the mapping was removed, or by hand) is not counted: a label must stay bounded.
 */
function countPoll(
  ctx: Pick<PollContext, 'config' | 'metrics'>,
  mapping: string,
  result: 'polled' | 'failed',
): void {
  if (mappingByName(ctx.config.mappings, mapping) !== undefined)
    ctx.metrics.changeRequestPoll(mapping, result);
}

/** A stop or a rate limit: the job's end (the runner stops, or pauses the queue), no mapping's failure. */
function endsTheJob(ctx: Pick<PollContext, 'signal'>, error: unknown): boolean {
  return ctx.signal.aborted || rateLimitPauseMs(error) !== undefined;
}

async function pollMapping(ctx: PollContext, name: string): Promise<MappingPolled<MappingPoll>> {
  const mapping = requireMapping(ctx, name);
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
  return {
    poll: { result: 'polled', managed: managed.length, updates: updates.length, merges: merges.length },
    failing: state.failures?.[ctx.job.name] !== undefined,
  };
}
