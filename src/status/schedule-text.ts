// How a next run's schedule reads for people, in the CLI's tables and on the status page alike.
import { formatDuration } from './format-time.js';
import type { NextRunAnswer } from './status-answer-schema.js';

/** `every 30s`, `cron 0 3 * * * (Europe/Paris)`, or undefined when the scheduler has neither. */
export function scheduleText(run: Pick<NextRunAnswer, 'every' | 'pattern' | 'tz'>): string | undefined {
  if (run.every !== undefined) return `every ${formatDuration(run.every)}`;
  if (run.pattern !== undefined) return `cron ${run.pattern}${run.tz === undefined ? '' : ` (${run.tz})`}`;
  return undefined;
}

/** A scheduler id as people wrote its parts: job ids percent-encode them (`org_1%2Fpets`). */
export function schedulerName(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}
