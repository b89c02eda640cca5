// When a scheduler's job was due, read from its id: BullMQ names the jobs of a job scheduler
// `repeat:<scheduler id>:<due time in ms>` (docs/decisions/0023-bullmq-internals.md lists what
// docsync reads of BullMQ). A poll that runs late, behind others of the same tick, may take the
// answer of a look that began at or after that time (src/git/git-mirror.ts fetch's `since`).

/** The due time (ms since the epoch) of a scheduler's job; undefined for any other job. */
export function scheduledTickAt(jobId: string): number | undefined {
  const match = /^repeat:.+:(\d{10,})$/.exec(jobId);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/**
 * The id of a new scheduler's first run, queued at once beside it (src/producers/sync-job-schedulers.ts):
 * `<scheduler id>/first-<ms>`, a run of the scheduler as its ticks are.
 */
export function firstRunJobId(schedulerId: string, at: number): string {
  return `${schedulerId}/first-${at}`;
}

/**
 * Whether a job is a run of a scheduler (a poll): one of its ticks, or its first run. Such a run
 * fails on each tick while its cause lasts, so it is told as failing and recovered, not failed.
 */
export function isScheduledRun(jobId: string): boolean {
  return jobId.startsWith('repeat:') || /\/first-\d+$/.test(jobId);
}
