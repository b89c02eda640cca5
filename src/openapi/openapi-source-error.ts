// Why an OpenAPI source could not be read: unreachable, too slow, too large, missing, or a `$ref`
// that leaves where its document came from. Network trouble is retried; the rest is not.
import { DocsyncError } from '../errors/docsync-error.js';
import type { ErrorCodeSubset } from '../errors/error-codes.js';

export type OpenApiSourceErrorCode = ErrorCodeSubset<
  'SOURCE_UNREACHABLE' | 'SOURCE_TIMEOUT' | 'SOURCE_TOO_LARGE' | 'SOURCE_NOT_FOUND' | 'SOURCE_REFUSED'
>;

/**
 * The setting a SOURCE_TOO_LARGE broke, so that a hint names it as its reader writes it: the
 * configuration's key for the daemon, the flag for a command (`--max-bytes`, `--max-ref-files`).
 */
export type SourceLimit = 'maxBytes' | 'maxRefFiles';

const RETRYABLE: ReadonlySet<OpenApiSourceErrorCode> = new Set(['SOURCE_UNREACHABLE', 'SOURCE_TIMEOUT']);

export class OpenApiSourceError extends DocsyncError {
  declare readonly code: OpenApiSourceErrorCode;
  readonly limit: SourceLimit | undefined;

  constructor(
    code: OpenApiSourceErrorCode,
    message: string,
    options: { cause?: unknown; limit?: SourceLimit } = {},
  ) {
    super(code, message, {
      ...(options.cause === undefined ? {} : { cause: options.cause }),
      retryable: RETRYABLE.has(code),
    });
    this.limit = options.limit;
  }
}
