// A docs folder or archive that docsync refuses to read or write: unsafe paths, hostile or broken
// zips, a SUMMARY.md pointing nowhere. Running the same input again cannot help, so it never retries.
import { DocsyncError } from '../errors/docsync-error.js';

export type ContentErrorCode =
  /** A path that is empty, absolute, leaves its root, or that git or a common file system refuses. */
  | 'PATH_UNSAFE'
  /** Not a zip, a truncated one, or entries we refuse: duplicates, links, encrypted or unknown compression. */
  | 'ARCHIVE_INVALID'
  /** An entry, or all entries together, inflate past the limits. */
  | 'ARCHIVE_TOO_LARGE'
  | 'ARCHIVE_TOO_MANY_ENTRIES'
  /** A folder or tree that cannot be read or written as documented: broken SUMMARY.md, clashing paths. */
  | 'CONTENT_INVALID';

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
