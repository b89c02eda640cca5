// The runs of a job scheduler's ticks, read from the log lines of several docsync processes: a tick's
// job has the id `repeat:<scheduler id>:<tick in ms>` in every process that runs it, so a tick run by
// two processes shows as two lines with one id. BullMQ runs a job again, on purpose, when its
// process stopped renewing its lock (`job stalled, it will run again`): such ticks are told apart.

type LogLine = Record<string, unknown>;

export interface TickRun {
  /** The tick's time, from the job id. */
  tick: number;
  job: string;
  pid: number;
}

/** The completed runs of the ticks of scheduler `scheduler` (such as `poll-git/both`) at or after `since`. */
export function tickRuns(lines: readonly LogLine[], scheduler: string, since = 0): TickRun[] {
  const prefix = `repeat:${scheduler}:`;
  return lines
    .filter((line) => line.msg === 'job completed' && String(line.job).startsWith(prefix))
    .map((line) => ({
      tick: Number(String(line.job).slice(prefix.length)),
      job: String(line.job),
      pid: Number(line.pid),
    }))
    .filter((run) => run.tick >= since);
}

/** The ids of jobs BullMQ found stalled, in any process. */
export function stalledJobs(lines: readonly LogLine[]): Set<string> {
  return new Set(
    lines.filter((line) => line.msg === 'job stalled, it will run again').map((line) => String(line.job)),
  );
}

/** Ticks (not found stalled) that more than one run completed, with the pids that ran them. */
export function ticksRunTwice(runs: readonly TickRun[], stalled: ReadonlySet<string>): string[] {
  const byJob = new Map<string, number[]>();
  for (const run of runs) byJob.set(run.job, [...(byJob.get(run.job) ?? []), run.pid]);
  return [...byJob.entries()]
    .filter(([job, pids]) => pids.length > 1 && !stalled.has(job))
    .map(([job, pids]) => `${job} ran in ${pids.join(', ')}`);
}
