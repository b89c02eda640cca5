// A mapping's failures, as /status shows them: each job's failures in a row (its last one with its
// code, a message with any credentials of a URL removed, git errors can quote the remote, and a
// hint), ended by the job's next success. Jobs queued for a mapping record both from their
// onFailure and onSuccess, which the job runner calls under its one rule.
import { mappingByName } from '../config/mapping-by-name.js';
import { DocsyncError } from '../errors/docsync-error.js';
import type { ErrorCode } from '../errors/error-codes.js';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';
import { type FailureSubject, failureHint } from './failure-hint.js';
import type { Failure, MappingStateStore } from './mapping-state.js';

/**
 * The failure as the stores keep it: when, its code, its message without credentials, a hint, and
 * the next try of work that backs off.
 */
export function failureOf(
  error: unknown,
  at: Date,
  subject: FailureSubject = {},
  nextTry: string | undefined = undefined,
): Failure {
  return {
    at: at.toISOString(),
    code: error instanceof DocsyncError ? error.code : ('FAILED' satisfies ErrorCode),
    message: redactUrlCredentials(error instanceof Error ? error.message : String(error)),
    hint: redactUrlCredentials(failureHint(error, subject)),
    ...(nextTry === undefined ? {} : { nextTry }),
  };
}

/** What recordMappingFailure and recordMappingSuccess read of a job's context. */
export interface MappingOutcomeContext {
  config: { mappings: readonly { name: string; space: string }[] };
  stores: { mappings: MappingStateStore };
  now: () => Date;
  /**
   * The job that ran: its failures in a row are counted apart from the mapping's other jobs. Its
   * next try, when it failed for good and its work backs off.
   */
  job: { name: string; nextTry?: string | undefined };
}

/**
 * The failure of a job queued for `mapping`, counted until the job next succeeds. A mapping that
 * left the configuration gets no state: its failure (MAPPING_UNKNOWN) is the job's alone.
 */
export async function recordMappingFailure(
  ctx: MappingOutcomeContext,
  mapping: string,
  error: unknown,
): Promise<void> {
  const configured = mappingByName(ctx.config.mappings, mapping);
  if (configured === undefined) return;
  await ctx.stores.mappings.recordFailure(
    mapping,
    ctx.job.name,
    failureOf(error, ctx.now(), { mapping: configured }, ctx.job.nextTry),
  );
}

/** The job ran through for `mapping`: its failures in a row, if any, are over. */
export async function recordMappingSuccess(ctx: MappingOutcomeContext, mapping: string): Promise<void> {
  if (mappingByName(ctx.config.mappings, mapping) === undefined) return;
  await ctx.stores.mappings.recordSuccess(mapping, ctx.job.name);
}
