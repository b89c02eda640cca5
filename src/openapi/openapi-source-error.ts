// Why an OpenAPI source could not be read: unreachable, too slow, too large, missing, or a `$ref`
// that leaves where its document came from. Network trouble is retried; the rest is not.
import { DocsyncError } from '../errors/docsync-error.js';
import type { ErrorCodeSubset } from '../errors/error-codes.js';

export type OpenApiSourceErrorCode = ErrorCodeSubset<
  'SOURCE_UNREACHABLE' | 'SOURCE_TIMEOUT' | 'SOURCE_TOO_LARGE' | 'SOURCE_NOT_FOUND' | 'SOURCE_REFUSED'
>;

/**
 * The spec's setting that would let the read through (a limit broken, a `root` left), so that a
 * hint names it as its reader writes it: the configuration's key for the daemon, the flag for a
 * command (`--max-bytes`, `--max-ref-files`, `--root`).
 */
export type SourceSetting = 'maxBytes' | 'maxRefFiles' | 'root';

const RETRYABLE: ReadonlySet<OpenApiSourceErrorCode> = new Set(['SOURCE_UNREACHABLE', 'SOURCE_TIMEOUT']);

export class OpenApiSourceError extends DocsyncError {
  declare readonly code: OpenApiSourceErrorCode;
  readonly setting: SourceSetting | undefined;

  constructor(
    code: OpenApiSourceErrorCode,
    message: string,
    options: { cause?: unknown; setting?: SourceSetting } = {},
  ) {
    super(code, message, {
      ...(options.cause === undefined ? {} : { cause: options.cause }),
      retryable: RETRYABLE.has(code),
    });
    this.setting = options.setting;
  }
}
