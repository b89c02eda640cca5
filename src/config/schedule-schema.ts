// When a scheduled job runs: either `every: 1h` or a cron `pattern` with an optional time zone.
// Both become a BullMQ job scheduler, so one tick runs once however many processes share Redis.
import { createRequire } from 'node:module';
import { z } from 'zod';
import { DAY, durationMs, SECOND } from './duration.js';

/**
 * cron-parser (and luxon under it, a large module), loaded the first time a cron pattern is read:
 * most configurations have none, and every `docsync start` reads its configuration before it serves.
 * CommonJS, so it can be required where the schema checks run, synchronously.
 */
let cron: typeof import('cron-parser').CronExpressionParser | undefined;
function cronParser(): typeof import('cron-parser').CronExpressionParser {
  cron ??= (createRequire(import.meta.url)('cron-parser') as typeof import('cron-parser'))
    .CronExpressionParser;
  return cron;
}

export const scheduleFields = {
  every: durationMs({ min: SECOND, max: 30 * DAY }).optional(),
  pattern: z.string().optional(),
  tz: z.string().optional(),
};

/** What checkSchedule reads, for `whenParsed`. */
export const SCHEDULE_PATHS = [['every'], ['pattern'], ['tz']] as const;

export type Schedule = { every: number } | { pattern: string; tz?: string };

interface ScheduleInput {
  every?: number | undefined;
  pattern?: string | undefined;
  tz?: string | undefined;
}

/** Checks that exactly one of `every` and `pattern` is set, and that the pattern and zone parse. */
export function checkSchedule(value: ScheduleInput, ctx: z.RefinementCtx, required: boolean): void {
  if (value.every !== undefined && value.pattern !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['pattern'], message: 'give either every or pattern, not both' });
    return;
  }
  if (value.every === undefined && value.pattern === undefined) {
    if (required) {
      ctx.addIssue({
        code: 'custom',
        path: ['every'],
        message: 'Required: give every (for example 1h) or a cron pattern',
      });
    }
    return;
  }
  if (value.tz !== undefined && !isTimeZone(value.tz)) {
    ctx.addIssue({
      code: 'custom',
      path: ['tz'],
      message: `unknown time zone "${value.tz}": use an IANA name such as Europe/Paris`,
    });
  }
  if (value.pattern !== undefined) {
    try {
      cronParser().parse(value.pattern, value.tz === undefined ? {} : { tz: value.tz });
    } catch (error) {
      ctx.addIssue({
        code: 'custom',
        path: ['pattern'],
        message: `invalid cron pattern "${value.pattern}": ${(error as Error).message}`,
      });
    }
  } else if (value.tz !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['tz'], message: 'tz applies to a cron pattern only' });
  }
}

export function toSchedule(value: ScheduleInput): Schedule | undefined {
  if (value.every !== undefined) return { every: value.every };
  if (value.pattern !== undefined)
    return value.tz === undefined ? { pattern: value.pattern } : { pattern: value.pattern, tz: value.tz };
  return undefined;
}

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
