// The failures in a row of each job of a mapping, as the stores keep them: a failure adds one to
// its job's run (the first one starts it), a success of that job ends it. The rule in TypeScript
// for the memory store, and in Lua for Redis, where it runs as one script: jobs of one mapping on
// other queues, or in other processes, may fail at the same moment.
import type { Failure, FailureRun } from './mapping-state.js';

export type FailureRuns = Record<string, FailureRun>;

/** `runs` with one more failure of `job`. */
export function withFailure(
  runs: Readonly<FailureRuns> | undefined,
  job: string,
  failure: Failure,
): FailureRuns {
  const run = runs?.[job];
  return { ...runs, [job]: { count: (run?.count ?? 0) + 1, since: run?.since ?? failure.at, last: failure } };
}

/** `runs` without `job`'s; undefined when no job is left failing. */
export function withSuccess(runs: Readonly<FailureRuns> | undefined, job: string): FailureRuns | undefined {
  const rest = Object.fromEntries(Object.entries(runs ?? {}).filter(([name]) => name !== job));
  return Object.keys(rest).length === 0 ? undefined : rest;
}

/**
 * KEYS[1]: the mapping's state hash. ARGV[1]: the job. ARGV[2]: the failure as JSON, or '' for a
 * success. The runs are the hash's `failures` field (JSON); a failure is also its `lastError`, and
 * the success of the last failing job removes both. A field that does not read back starts afresh.
 */
export const FAILURE_RUN_SCRIPT = `
local text = redis.call('HGET', KEYS[1], 'failures')
local runs = {}
if text then
  local ok, decoded = pcall(cjson.decode, text)
  if ok and type(decoded) == 'table' then runs = decoded end
end
local job = ARGV[1]
if ARGV[2] == '' then
  if runs[job] == nil then return 0 end
  runs[job] = nil
  if next(runs) == nil then
    redis.call('HDEL', KEYS[1], 'failures', 'lastError')
  else
    redis.call('HSET', KEYS[1], 'failures', cjson.encode(runs))
  end
  return 0
end
local failure = cjson.decode(ARGV[2])
local run = runs[job]
local count, since = 1, failure.at
if type(run) == 'table' and type(run.count) == 'number' then
  count = run.count + 1
  if type(run.since) == 'string' then since = run.since end
end
runs[job] = { count = count, since = since, last = failure }
redis.call('HSET', KEYS[1], 'failures', cjson.encode(runs), 'lastError', ARGV[2])
return count
`;
