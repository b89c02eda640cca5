// After an upload the service processes the spec (`pending`, `progress`, `complete`): docsync
// reads it again with a backing-off pause until it is complete, within a deadline.
import { setTimeout as sleep } from 'node:timers/promises';
import type { DocsApiClient } from '../api/docs-api-client.js';
import type { OpenApiSpec } from '../api/schemas/openapi-spec-schema.js';
import { DocsyncError } from '../errors/docsync-error.js';

export const PROCESSING_POLL = { firstMs: 100, factor: 2, maxMs: 5_000 } as const;

export async function waitForProcessing(
  api: DocsApiClient,
  org: string,
  slug: string,
  options: { timeoutMs: number; signal: AbortSignal; first?: OpenApiSpec },
): Promise<OpenApiSpec> {
  const deadline = Date.now() + options.timeoutMs;
  let spec = options.first;
  let pause: number = PROCESSING_POLL.firstMs;
  while (spec === undefined || spec.processingState !== 'complete') {
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new DocsyncError(
        'OPENAPI_PROCESSING_TIMEOUT',
        `the service did not finish processing ${org}/${slug} within ${options.timeoutMs} ms (state ${spec?.processingState ?? 'unknown'})`,
        { retryable: true },
      );
    }
    await sleep(Math.min(pause, left), undefined, { signal: options.signal });
    pause = Math.min(pause * PROCESSING_POLL.factor, PROCESSING_POLL.maxMs);
    spec = await api.openapi.get(org, slug, { signal: options.signal });
  }
  return spec;
}
