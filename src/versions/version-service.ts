// What the reconcile of a branches mapping needs around it: the service client, the mapping's
// state, where its writes are recorded, and a logger. Passed in, so tests and benchmarks run it
// against the local service with state in memory.
import { ApiError } from '../api/api-error.js';
import type { DocsApiClient } from '../api/docs-api-client.js';
import type { BranchMappingConfig } from '../config/branch-mapping-schema.js';
import { DocsyncError } from '../errors/docsync-error.js';
import type { Logger } from '../log/create-logger.js';
import type { VersionCalls } from './version-calls.js';

export interface VersionDeps {
  api: DocsApiClient;
  mapping: BranchMappingConfig;
  calls: VersionCalls;
  log: Logger;
  signal?: AbortSignal | undefined;
}

/** The organization of the mapping's spaces and site (the schema requires one of the two). */
export function orgOf(mapping: BranchMappingConfig): string {
  const org = mapping.spaces.org ?? mapping.site?.org;
  if (org === undefined)
    throw new DocsyncError('CONFIG_INVALID', `mapping ${mapping.name} names no organization`);
  return org;
}

/** A 404 from the service as the clear failure the README promises: what is missing, where, what to do. */
export function missingTarget(error: unknown, what: string): unknown {
  if (error instanceof ApiError && error.status === 404)
    return new DocsyncError(
      'VERSIONS_TARGET_MISSING',
      `${what} does not exist, or the token cannot see it: check the mapping's site and org`,
      { cause: error },
    );
  return error;
}
