// A mapping's last failure, as /status shows it: its code and a message with any credentials of a
// URL removed (git errors can quote the remote). Jobs queued for a mapping record it from their
// onFailure, which the job runner calls under its one rule.
import { DocsyncError } from '../errors/docsync-error.js';
import type { ErrorCode } from '../errors/error-codes.js';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';
import type { MappingStateStore } from './mapping-state.js';

export async function recordFailure(
  store: MappingStateStore,
  mapping: string,
  error: unknown,
  now: () => Date,
): Promise<void> {
  await store.update(mapping, {
    lastError: {
      at: now().toISOString(),
      code: error instanceof DocsyncError ? error.code : ('FAILED' satisfies ErrorCode),
      message: redactUrlCredentials(error instanceof Error ? error.message : String(error)),
    },
  });
}

/** What recordMappingFailure reads of a job's context. */
export interface MappingFailureContext {
  config: { mappings: readonly { name: string }[] };
  stores: { mappings: MappingStateStore };
  now: () => Date;
}

/**
 * The failure of a job queued for `mapping`, kept in its state until it next succeeds. A mapping
 * that left the configuration gets no state: its failure (MAPPING_UNKNOWN) is the job's alone.
 */
export async function recordMappingFailure(
  ctx: MappingFailureContext,
  mapping: string,
  error: unknown,
): Promise<void> {
  if (!ctx.config.mappings.some((item) => item.name === mapping)) return;
  await recordFailure(ctx.stores.mappings, mapping, error, ctx.now);
}
