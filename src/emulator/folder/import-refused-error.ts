// Why the local service refuses an import archive as a whole: it is not a readable zip, it holds a
// path no honest folder holds, it is too large, or a page cannot be read. The route answers 400 with
// the message, which names the entry or line and what to change.
import { DocsyncError } from '../../errors/docsync-error.js';
import type { ErrorCodeSubset } from '../../errors/error-codes.js';

export type ImportRefusedCode = ErrorCodeSubset<
  'PATH_UNSAFE' | 'ARCHIVE_INVALID' | 'ARCHIVE_TOO_LARGE' | 'ARCHIVE_TOO_MANY_ENTRIES' | 'CONTENT_INVALID'
>;

export class ImportRefusedError extends DocsyncError {
  declare readonly code: ImportRefusedCode;
  /** The entry of the archive the refusal is about, when there is one. */
  readonly path: string | undefined;

  constructor(code: ImportRefusedCode, message: string, options: { path?: string; cause?: unknown } = {}) {
    super(code, message, options.cause === undefined ? {} : { cause: options.cause });
    this.path = options.path;
  }
}
