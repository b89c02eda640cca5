// What docsync knows of each OpenAPI spec it refreshes: the last upload (its hash, the source's
// validators, the version it made, its operations for the next changelog), content the service
// rejected, and the last refresh's outcome for /status; and the store every version (Redis for the
// daemon, memory for tests and `docsync once`) keeps it in.
import { z } from 'zod';
import { failureSchema } from './mapping-state.js';
import { versionChangesSchema } from './version-changes-schema.js';

const validatorsSchema = z.object({
  etag: z.string().optional(),
  lastModified: z.string().optional(),
  blob: z.string().optional(),
});

const uploadSchema = z.object({
  at: z.string(),
  /** sha256 of the text uploaded (or validated, for `upload: url`). */
  hash: z.string(),
  /** sha256 of the source's own bytes: equal bytes with no `$ref`'d files are the same upload. */
  sourceHash: z.string(),
  /** Whether `$ref`s named other files: then the source's validators alone cannot say "unchanged". */
  refFiles: z.number(),
  validators: validatorsSchema,
  version: z.string().optional(),
  /** Operation → fingerprint, to say what the next version changes. */
  operations: z.record(z.string(), z.string()),
  /** Component → fingerprint of its own text, to name what changed under an operation. */
  components: z.record(z.string(), z.string()).optional(),
  /** Its contract, packed (src/openapi/openapi-contract.ts): to mark what the next version breaks. */
  contract: z.string().optional(),
  /** The document's `info.title`, for people: the status names a spec by it and its slug. */
  title: z.string().optional(),
});

const problemSchema = z.object({
  pointer: z.string(),
  message: z.string(),
  file: z.string().optional(),
  /** Where the parser found it in the text (a duplicate key). */
  line: z.number().int().optional(),
  column: z.number().int().optional(),
});

export const refreshSchema = z.object({
  at: z.string(),
  /** uploaded, unchanged, no-new-version, invalid, failed, rejected-before. */
  result: z.string(),
  trigger: z.string().optional(),
  version: z.string().optional(),
  /** The new version's changes, each list bounded (src/state/version-changes-schema.ts). */
  changes: versionChangesSchema.optional(),
  changelog: z.array(z.string()).optional(),
  problems: z.array(problemSchema).optional(),
  /** Why it failed, with what to check (src/state/failure-hint.ts). */
  error: failureSchema.omit({ at: true }).optional(),
});

/** The spec's refreshes that failed in a row, until one succeeds; the last one is `lastRefresh`. */
export const specFailuresSchema = z.object({ count: z.number().int().positive(), since: z.string() });

export const openApiStateSchema = z.object({
  uploaded: uploadSchema.optional(),
  /** Content the service processed and refused: the same bytes are not sent again. */
  rejected: z.object({ hash: z.string(), code: z.string(), at: z.string() }).optional(),
  lastRefresh: refreshSchema.optional(),
  /** The last refresh that made a new version. */
  lastVersion: refreshSchema.optional(),
  failures: specFailuresSchema.optional(),
});

export type OpenApiState = z.infer<typeof openApiStateSchema>;

/** What /status shows of a spec: the last upload without its validators and operation fingerprints. */
const openApiSummarySchema = z.object({
  uploaded: z
    .object({ at: z.string(), version: z.string().optional(), title: z.string().optional() })
    .optional(),
  lastRefresh: refreshSchema.optional(),
  lastVersion: refreshSchema.optional(),
  failures: specFailuresSchema.optional(),
});

export type OpenApiSummary = z.infer<typeof openApiSummarySchema>;
export type OpenApiRefresh = z.infer<typeof refreshSchema>;
export type OpenApiUpload = z.infer<typeof uploadSchema>;
export type SpecFailures = z.infer<typeof specFailuresSchema>;

/** One record per spec, by org and slug. */
export interface OpenApiStateStore {
  /** The spec's state; an unreadable record is no record (the next refresh uploads once more). */
  get(org: string, slug: string): Promise<OpenApiState>;
  /** The parts /status shows; the operations of the last upload are neither validated nor kept. */
  summary(org: string, slug: string): Promise<OpenApiSummary>;
  /** Merges `patch` into the spec's state; an `undefined` member removes it. */
  update(org: string, slug: string, patch: Partial<OpenApiState>): Promise<OpenApiState>;
}

/** A stored record as the full state; `{}` when it does not read back. */
export function readOpenApiState(value: unknown): OpenApiState {
  const parsed = openApiStateSchema.safeParse(value);
  return parsed.success ? parsed.data : {};
}

/** A stored record as /status shows it; `{}` when it does not read back. */
export function readOpenApiSummary(value: unknown): OpenApiSummary {
  const parsed = openApiSummarySchema.safeParse(value);
  return parsed.success ? parsed.data : {};
}

/** `state` with `patch` merged in, members set to undefined removed. */
export function patchOpenApiState(state: OpenApiState, patch: Partial<OpenApiState>): OpenApiState {
  const next: OpenApiState = { ...state, ...patch };
  for (const key of Object.keys(next) as (keyof OpenApiState)[])
    if (next[key] === undefined) delete next[key];
  return next;
}
