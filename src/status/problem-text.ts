// The words of the health headline, the same on the status page and in `docsync status`: "all in
// sync" or "2 problems", and each problem as one sentence naming what and why. Pure: the summary
// and the clock come in.
import { relativeTime } from './format-time.js';
import type { HealthProblem, HealthSummary } from './health-summary.js';

/** The style each view gives a problem's state. */
export const PROBLEM_STYLE: Readonly<Record<string, 'bad' | 'warn'>> = {
  failing: 'bad',
  unreadable: 'bad',
  paused: 'warn',
  degraded: 'warn',
};

/** `all in sync (2 mappings, 1 spec)`, or `2 problems`. */
export function headline(summary: HealthSummary): string {
  const count = summary.problems.length;
  if (count > 0) return `${count} problem${count === 1 ? '' : 's'}`;
  const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
  const mappings = total(summary.mappings);
  const specs = total(summary.openapi);
  return `all in sync (${mappings} mapping${mappings === 1 ? '' : 's'}, ${specs} spec${specs === 1 ? '' : 's'})`;
}

/**
 * What is wrong, in one sentence without the hint: `mapping docs is failing (poll-git failed 4 times
 * in a row since 3m ago): CODE message`, and the next try of work that backs off.
 */
export function problemText(problem: HealthProblem, now: Date): string {
  const what =
    problem.kind === 'status' ? `the ${problem.name} of the status` : `${problem.kind} ${problem.name}`;
  const since = problem.since === undefined ? '' : ` since ${relativeTime(problem.since, now)}`;
  const run =
    problem.job === undefined || problem.count === undefined
      ? since
      : ` (${problem.job} failed ${problem.count === 1 ? 'once' : `${problem.count} times in a row`}${since})`;
  const reason = [problem.code, problem.message].filter((part) => part !== undefined).join(' ');
  return `${what} is ${problem.state}${run}${reason === '' ? '' : `: ${reason}`}${nextTryText(problem.nextTry, now)}`;
}

/** When work that backs off is tried again: `; next try in 4m`, or at the poll that queues it next. */
function nextTryText(nextTry: string | undefined, now: Date): string {
  if (nextTry === undefined) return '';
  return Date.parse(nextTry) > now.getTime()
    ? `; next try ${relativeTime(nextTry, now)}`
    : '; next try when it is next queued';
}
