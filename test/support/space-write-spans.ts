// Whether the per-space lock held across processes, judged from the service's request log: every
// write docsync made to a space (or to a spec) came from a job that held that lock in the process
// that sent it, and the writes of two such jobs were never in flight at once. The jobs are read
// from each process's `job completed` / `job failed` lines (their lockKey, when they ended and how
// long they ran); a request is the process's by the door it came through. A request is placed by
// when it reached the service (its start): the service notes a request's end in its response hook,
// which runs when its event loop gets to it, on a loaded machine after the job that sent the
// request has already logged its end. The start is taken before the response is sent, so before
// the sender could go on: a write that started while a job ran is that job's.
import { JOBS } from '../../jobs/registry.js';
import type { LoggedRequest } from './service-request-log.js';

type LogLine = Record<string, unknown>;

/** One process's run: its door, its log lines, and when it was killed, if it was. */
export interface ProcessRun {
  door: number;
  lines: readonly LogLine[];
  killedAt?: number;
}

interface JobSpan {
  label: string;
  key: string;
  door: number;
  /** The job's run, from its log line. */
  from: number;
  to: number;
  /** Its writes as the service saw them. */
  writes: LoggedRequest[];
}

const READERS = new Set(JOBS.filter((job) => job.lock === 'read').map((job) => job.name));

/** The lock a write of docsync's takes, by its path; undefined for a write no lock covers. */
function lockOf(request: LoggedRequest): string | undefined {
  if (!/^(POST|PUT|PATCH) /.test(request.route)) return undefined;
  // The link comment is written under the space's read lock, beside its writers.
  if (request.route.includes('/comments')) return undefined;
  if (request.space !== undefined) return request.space;
  if (request.route.startsWith('PUT /v1/orgs/:o/openapi/:slug'))
    return `openapi/${request.org}/${request.slug}`;
  return undefined;
}

/**
 * What broke the lock, one sentence each (empty when it held), and how many jobs wrote: a test
 * asserts both, so that a run that wrote nothing cannot pass for one where the lock held.
 */
export function lockProblems(
  requests: readonly LoggedRequest[],
  token: string,
  runs: readonly ProcessRun[],
): { problems: string[]; writingJobs: number } {
  const spans: JobSpan[] = [];
  for (const run of runs)
    for (const line of run.lines) {
      const { lockKey, durationMs, time, name, job } = line;
      if (typeof lockKey !== 'string' || typeof durationMs !== 'number' || typeof time !== 'string') continue;
      if (READERS.has(String(name))) continue;
      const to = Date.parse(time);
      spans.push({
        label: `${String(name)} ${String(job)} (door ${run.door})`,
        key: lockKey,
        door: run.door,
        from: to - durationMs,
        to,
        writes: [],
      });
    }
  const problems: string[] = [];
  const cutShort = new Map<string, JobSpan>();
  for (const request of requests) {
    const key = lockOf(request);
    if (key === undefined || request.token !== token) continue;
    const span = spans.find(
      (candidate) =>
        candidate.key === key &&
        candidate.door === request.door &&
        candidate.from <= request.start &&
        request.start <= candidate.to,
    );
    if (span !== undefined) {
      span.writes.push(request);
      continue;
    }
    // A job whose process was killed wrote no line: its writes before the kill are one job's.
    const killed = runs.find(
      (run) => run.door === request.door && run.killedAt !== undefined && request.start <= run.killedAt,
    );
    if (killed !== undefined) {
      const id = `${key} ${killed.door}`;
      const pending = cutShort.get(id) ?? {
        label: `a job cut short by the kill (door ${killed.door})`,
        key,
        door: killed.door,
        from: request.start,
        to: killed.killedAt ?? request.end,
        writes: [],
      };
      pending.writes.push(request);
      cutShort.set(id, pending);
      continue;
    }
    problems.push(
      `${request.route} on ${key} by door ${request.door} at ${request.start} came from no job holding ${key}`,
    );
  }
  const writing = [...spans, ...cutShort.values()].filter((span) => span.writes.length > 0);
  // From a job's first write to its end (or its kill): no other job may write to the key meanwhile.
  const window = (span: JobSpan) => ({
    first: Math.min(...span.writes.map((write) => write.start)),
    last: span.to,
  });
  for (const [index, a] of writing.entries())
    for (const b of writing.slice(index + 1)) {
      if (a.key !== b.key) continue;
      const [x, y] = [window(a), window(b)];
      if (x.first < y.last && y.first < x.last)
        problems.push(`${a.label} and ${b.label} wrote to ${a.key} at the same time`);
    }
  return { problems, writingJobs: writing.length };
}
