// Durations in config are strings with a unit (`500ms`, `30s`, `5m`, `1h`, `1d`): a bare number
// would leave the reader guessing whether it means seconds or milliseconds.
import { z } from 'zod';
import { withJsonSchemaHint } from './json-schema-hints.js';

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

const UNIT_MS = { ms: 1, s: SECOND, m: MINUTE, h: HOUR, d: DAY } as const;
const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/;

/** Milliseconds for `30s`, `1.5h`, ...; undefined when the text is not a duration. */
export function parseDuration(text: string): number | undefined {
  const match = DURATION.exec(text.trim());
  if (!match) return undefined;
  const [, amount, unit] = match;
  return Math.round(Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS]);
}

/** A duration in config, read into milliseconds, between `min` and `max`. */
export function durationMs(bounds: { min: number; max: number }) {
  const schema = z
    .union([z.string(), z.number()], {
      error: 'expected a duration: write a number with a unit, for example 500ms, 30s, 5m, 1h or 1d',
    })
    .transform((input, ctx) => {
      const text = String(input);
      const ms = typeof input === 'string' ? parseDuration(input) : undefined;
      if (ms === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `"${text}" is not a duration: write a number with a unit, for example 500ms, 30s, 5m, 1h or 1d`,
        });
        return z.NEVER;
      }
      if (ms < bounds.min || ms > bounds.max) {
        ctx.addIssue({
          code: 'custom',
          message: `${text} is out of range: between ${formatDuration(bounds.min)} and ${formatDuration(bounds.max)}`,
        });
        return z.NEVER;
      }
      return ms;
    });
  return withJsonSchemaHint(schema, {
    schema: {
      type: 'string',
      pattern: '^\\d+(\\.\\d+)?\\s*(ms|s|m|h|d)$',
      $comment: `duration, ${formatDuration(bounds.min)} to ${formatDuration(bounds.max)}`,
    },
    formatDefault: (value) => (typeof value === 'number' ? formatDuration(value) : value),
  });
}

export function formatDuration(ms: number): string {
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    if (ms >= UNIT_MS[unit] && ms % UNIT_MS[unit] === 0) return `${ms / UNIT_MS[unit]}${unit}`;
  }
  return `${ms}ms`;
}
