// What `docsync status` and the status page read of a /status answer, validated before anything
// is shown: only the fields the tables show, the others pass unchecked (and `--json` prints them as
// they came). A part the daemon could not read comes as `{ "error": ... }` in its place. Records the
// state keeps are read with the state's own schemas; words a newer docsync may add (results, pause
// reasons, warning codes) are read as text.
import { z } from 'zod';
import { eventSchema } from '../state/event-log.js';
import { linkCheckSummarySchema } from '../state/link-check-store.js';
import {
  exportOutcomeSchema,
  failureSchema,
  importOutcomeSchema,
  mergeOutcomeSchema,
  pauseSchema,
  pendingConflictSchema,
} from '../state/mapping-state.js';
import { refreshSchema } from '../state/openapi-state-store.js';
import { jobFailuresSchema } from './health-state.js';
import { healthSummarySchema } from './health-summary.js';
import { nextRunSchema } from './next-runs.js';
import { recentFailureSchema } from './recent-failures.js';
import { serviceBudgetStatusSchema } from './service-budget-status.js';

const partError = z.object({ error: z.string() });

/** A part, or the reason it could not be read. */
const orError = <T extends z.ZodType>(schema: T) => z.union([partError, schema]);

const verdict = z.object({
  changeRequest: z.string(),
  number: z.number(),
  subject: z.string().optional(),
  mergeable: z.boolean(),
  reasons: z.array(z.string()).default([]),
});

const linkCheck = linkCheckSummarySchema.extend({ target: z.string(), number: z.number().optional() });

/** A warning of the last import (src/content/content-warning.ts); codes a newer docsync adds pass as text. */
const importWarning = z.object({
  code: z.string(),
  file: z.string(),
  line: z.number().optional(),
  message: z.string(),
});

/** Health and why, shared by mappings and specs; absent when the state could not be read. */
const health = {
  state: z.string().optional(),
  failures: z.array(jobFailuresSchema).default([]),
};

const mapping = z.object({
  name: z.string(),
  direction: z.string(),
  ...health,
  paused: pauseSchema.extend({ reason: z.string() }).optional(),
  lastImport: importOutcomeSchema
    .pick({ at: true, sha: true, changeRequest: true, warningCount: true })
    .extend({
      result: z.string(),
      /** The first warnings (a daemon older than them sends none). */
      warnings: z.array(importWarning).default([]),
    })
    // The count is never below the list, whatever sent it: the tables can trust it.
    .transform((last) => ({ ...last, warningCount: Math.max(last.warningCount ?? 0, last.warnings.length) }))
    .optional(),
  lastMerge: mergeOutcomeSchema.optional(),
  lastExport: exportOutcomeSchema
    .pick({ at: true, sha: true, branch: true })
    .extend({ result: z.string(), revision: z.string().optional() })
    .optional(),
  pendingConflict: pendingConflictSchema.optional(),
  /** The repository sends push webhooks (the last one's time): its polls look every `looksEvery` ms. */
  pushHook: z.object({ at: z.string(), looksEvery: z.number() }).optional(),
  lastError: failureSchema.optional(),
  changeRequests: z.array(verdict).default([]),
  linkChecks: z.array(linkCheck).default([]),
  error: z.string().optional(),
});

const spec = z.object({
  org: z.string(),
  slug: z.string(),
  /** The document's info.title at the last upload. */
  title: z.string().optional(),
  ...health,
  version: z.string().optional(),
  lastRefresh: refreshSchema.optional(),
  lastNewVersion: refreshSchema.optional(),
  error: z.string().optional(),
});

export const statusAnswerSchema = z.object({
  version: z.string(),
  startedAt: z.string(),
  uptimeSeconds: z.number(),
  /** Absent from daemons older than health states. */
  summary: healthSummarySchema.optional(),
  mappings: orError(z.array(mapping)),
  openapi: orError(z.array(spec)),
  queues: orError(z.record(z.string(), z.record(z.string(), z.number()))),
  /** Absent from daemons older than these parts. */
  nextRuns: orError(z.array(nextRunSchema)).optional(),
  failures: orError(z.array(recentFailureSchema)).optional(),
  events: orError(z.array(eventSchema)).optional(),
  /** Only when service.rateLimit is set (and absent from daemons older than it). */
  serviceBudget: orError(serviceBudgetStatusSchema).optional(),
});

export type StatusAnswer = z.output<typeof statusAnswerSchema>;
export type MappingStatusAnswer = z.output<typeof mapping>;
export type SpecStatusAnswer = z.output<typeof spec>;
export type NextRunAnswer = z.output<typeof nextRunSchema>;
export type FailureAnswer = z.output<typeof recentFailureSchema>;
export type EventAnswer = z.output<typeof eventSchema>;
export type PartErrorAnswer = z.output<typeof partError>;

/** Whether a part of the answer is the reason it could not be read. */
export function isPartError(part: unknown): part is PartErrorAnswer {
  return typeof part === 'object' && part !== null && !Array.isArray(part) && 'error' in part;
}
