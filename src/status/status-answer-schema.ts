// What `docsync status` and the status page read of a /status answer, validated before anything
// is shown: only the fields the tables show, the others pass unchecked (and `--json` prints them as
// they came). A part the daemon could not read comes as `{ "error": ... }` in its place.
import { z } from 'zod';
import { eventSchema } from '../state/event-log.js';
import { mergeOutcomeSchema } from '../state/mapping-state.js';

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

const linkCheck = z.object({
  target: z.string(),
  number: z.number().optional(),
  at: z.string(),
  revision: z.string(),
  broken: z.number(),
  total: z.number().optional(),
});

/** A warning of the last import (src/content/content-warning.ts); codes a newer docsync adds pass as text. */
const importWarning = z.object({
  code: z.string(),
  file: z.string(),
  line: z.number().optional(),
  message: z.string(),
});

const mapping = z.object({
  name: z.string(),
  direction: z.string(),
  /** Absent when the mapping's state could not be read: `error` says why. */
  state: z.string().optional(),
  paused: z.object({ reason: z.string(), detail: z.string(), at: z.string() }).optional(),
  lastImport: z
    .object({
      at: z.string(),
      result: z.string(),
      sha: z.string().optional(),
      changeRequest: z.object({ id: z.string(), number: z.number(), url: z.string().optional() }).optional(),
      /** The first warnings (a daemon older than them sends none). */
      warnings: z.array(importWarning).default([]),
      warningCount: z.number().optional(),
    })
    // The count is never below the list, whatever sent it: the tables can trust it.
    .transform((last) => ({ ...last, warningCount: Math.max(last.warningCount ?? 0, last.warnings.length) }))
    .optional(),
  lastMerge: mergeOutcomeSchema.optional(),
  lastExport: z
    .object({
      at: z.string(),
      result: z.string(),
      revision: z.string().optional(),
      sha: z.string().optional(),
      branch: z.string().optional(),
    })
    .optional(),
  pendingConflict: z.object({ sha: z.string(), branch: z.string(), revision: z.string() }).optional(),
  lastError: z.object({ at: z.string(), code: z.string(), message: z.string() }).optional(),
  changeRequests: z.array(verdict).default([]),
  linkChecks: z.array(linkCheck).default([]),
  error: z.string().optional(),
});

const refresh = z.object({
  at: z.string(),
  result: z.string(),
  version: z.string().optional(),
  changelog: z.array(z.string()).optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});

const spec = z.object({
  org: z.string(),
  slug: z.string(),
  version: z.string().optional(),
  lastRefresh: refresh.optional(),
  lastNewVersion: refresh.optional(),
  error: z.string().optional(),
});

const nextRun = z.object({
  queue: z.string(),
  key: z.string(),
  name: z.string(),
  next: z.string(),
  every: z.number().optional(),
  pattern: z.string().optional(),
  tz: z.string().optional(),
});

const failure = z.object({
  queue: z.string(),
  name: z.string(),
  id: z.string(),
  failedReason: z.string(),
  attemptsMade: z.number(),
  at: z.string(),
});

export const statusAnswerSchema = z.object({
  version: z.string(),
  startedAt: z.string(),
  uptimeSeconds: z.number(),
  mappings: orError(z.array(mapping)),
  openapi: orError(z.array(spec)),
  queues: orError(z.record(z.string(), z.record(z.string(), z.number()))),
  /** Absent from daemons older than these parts. */
  nextRuns: orError(z.array(nextRun)).optional(),
  failures: orError(z.array(failure)).optional(),
  events: orError(z.array(eventSchema)).optional(),
});

export type StatusAnswer = z.output<typeof statusAnswerSchema>;
export type MappingStatusAnswer = z.output<typeof mapping>;
export type SpecStatusAnswer = z.output<typeof spec>;
export type NextRunAnswer = z.output<typeof nextRun>;
export type FailureAnswer = z.output<typeof failure>;
export type EventAnswer = z.output<typeof eventSchema>;
export type PartErrorAnswer = z.output<typeof partError>;
