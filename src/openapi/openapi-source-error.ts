// Why an OpenAPI source could not be read: unreachable, too slow, too large, missing, or a `$ref`
// that leaves where its document came from. Network trouble is retried; the rest is not.
import { DocsyncError } from '../errors/docsync-error.js';
import type { ErrorCodeSubset } from '../errors/error-codes.js';

export type OpenApiSourceErrorCode = ErrorCodeSubset<
  'SOURCE_UNREACHABLE' | 'SOURCE_TIMEOUT' | 'SOURCE_TOO_LARGE' | 'SOURCE_NOT_FOUND' | 'SOURCE_REFUSED'
>;

const RETRYABLE: ReadonlySet<OpenApiSourceErrorCode> = new Set(['SOURCE_UNREACHABLE', 'SOURCE_TIMEOUT']);

export class OpenApiSourceError extends DocsyncError {
  declare readonly code: OpenApiSourceErrorCode;

  constructor(code: OpenApiSourceErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(code, message, { ...options, retryable: RETRYABLE.has(code) });
  }
}
