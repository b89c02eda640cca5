// Misuse of the artifact store by docsync itself: an id it did not hand out, a bundle published
// before it was written, a secret too short to sign with. None of these gets better on a retry.
import { DocsyncError } from '../errors/docsync-error.js';
import type { ErrorCodeSubset } from '../errors/error-codes.js';

/**
 * ARTIFACT_ID_INVALID: not an id `reserve()` could have returned, so not safe as a file name;
 * ARTIFACT_MISSING: `publish()` of an id whose file is not there (never written, removed, or swept).
 * What each code means for a user: src/errors/error-codes.ts.
 */
export type ArtifactErrorCode = ErrorCodeSubset<
  'ARTIFACT_ID_INVALID' | 'ARTIFACT_MISSING' | 'ARTIFACT_SECRET_WEAK'
>;

export class ArtifactError extends DocsyncError {
  declare readonly code: ArtifactErrorCode;

  constructor(code: ArtifactErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(code, message, options);
  }
}
