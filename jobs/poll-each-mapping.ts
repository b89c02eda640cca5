// The mappings of one scheduled job, each polled and its outcome recorded as the runner records a
// job's: the change request polls of a batch of mappings (jobs/poll-change-requests/), the git polls
// of a repository's mappings (jobs/poll-git/). One mapping's failure is logged and shown in /status
// for that mapping, the others go on, and the next tick polls it again. A stop or a rate limit ends
// the job: no mapping starts after it, and it is the job's to end (the runner stops, or pauses the
// queue).
import { mapBounded } from '../src/concurrency/map-bounded.js';
import { DocsyncError } from '../src/errors/docsync-error.js';
import { bestEffort } from '../src/queue/best-effort.js';
import type { JobRun } from '../src/queue/job-definition.js';
import { isPermanent } from '../src/queue/retry-policy.js';

/** A mapping's poll, and whether the state it read held a run of failures of this job. */
export interface MappingPolled<R> {
  poll: R;
  failing: boolean;
}

export interface EachMappingPoll<R> {
  /**
   * Groups polled at once; the mappings of one group are polled one after the other (the mappings of
   * one repository, which share its look).
   */
  parallel: number;
  /** The poll of one mapping; undefined when it did not start (the job ends). */
  poll(name: string): Promise<MappingPolled<R> | undefined>;
  /** Whether an error ends the job rather than fails a mapping. */
  endsTheJob(error: unknown): boolean;
  /** Told of each mapping's end, for totals and metrics. */
  polled?(name: string, poll: R): void;
  failed?(name: string): void;
  /** The log messages of a mapping's failure: one that a retry cannot mend, and one that it may. */
  messages: { permanent: string; transient: string };
}

/** Polls the mappings of `groups`; throws what ended the job, after the polls under way settled. */
export async function pollEachMapping<R>(
  ctx: Pick<JobRun, 'log' | 'signal' | 'recordOutcome'>,
  groups: readonly (readonly string[])[],
  each: EachMappingPoll<R>,
): Promise<{ failed: number }> {
  let stop: unknown;
  let failed = 0;
  const pollOne = async (name: string): Promise<void> => {
    if (stop !== undefined) return;
    try {
      const polled = await each.poll(name);
      if (polled === undefined) return;
      each.polled?.(name, polled.poll);
      // A success ends a run of failures: a write only for a mapping whose state it read had one.
      if (polled.failing)
        await bestEffort(ctx.log.child({ mapping: name }), 'mapping poll outcome not recorded', () =>
          ctx.recordOutcome({ mapping: name }, { succeeded: true }),
        );
    } catch (error) {
      if (each.endsTheJob(error)) {
        stop ??= ctx.signal.aborted ? (ctx.signal.reason ?? error) : error;
        return;
      }
      failed += 1;
      each.failed?.(name);
      const code = error instanceof DocsyncError ? error.code : undefined;
      const log = ctx.log.child({ mapping: name });
      if (isPermanent(error)) log.error({ code, err: error }, each.messages.permanent);
      else log.warn({ code, err: error }, each.messages.transient);
      await bestEffort(log, 'mapping poll outcome not recorded', () =>
        ctx.recordOutcome({ mapping: name }, { failed: error }),
      );
    }
  };
  await mapBounded(groups, each.parallel, async (group) => {
    for (const name of group) await pollOne(name);
  });
  if (stop !== undefined) throw stop;
  return { failed };
}
