// A docs folder or archive that docsync refuses to read or write: unsafe paths, hostile or broken
// zips, a SUMMARY.md pointing nowhere. Running the same input again cannot help, so it never retries.
import { DocsyncError } from '../errors/docsync-error.js';
import type { ErrorCodeSubset } from '../errors/error-codes.js';

/** What each code means: src/errors/error-codes.ts. */
export type ContentErrorCode = ErrorCodeSubset<
  'PATH_UNSAFE' | 'ARCHIVE_INVALID' | 'ARCHIVE_TOO_LARGE' | 'ARCHIVE_TOO_MANY_ENTRIES' | 'CONTENT_INVALID'
>;

export interface ContentErrorOptions {
  cause?: unknown;
  /** The path the problem is about, normalised when it could be, as written otherwise. */
  path?: string;
}

export class ContentError extends DocsyncError {
  declare readonly code: ContentErrorCode;
  readonly path: string | undefined;

  constructor(code: ContentErrorCode, message: string, options: ContentErrorOptions = {}) {
    super(code, message, options.cause === undefined ? {} : { cause: options.cause });
    this.path = options.path;
  }
}
