// Misuse of the artifact store by docsync itself: an id it did not hand out, a bundle published
// before it was written, a secret too short to sign with. None of these gets better on a retry.
import { DocsyncError } from '../errors/docsync-error.js';

export type ArtifactErrorCode =
  /** Not an id `reserve()` could have returned: it would not be safe as a file name. */
  | 'ARTIFACT_ID_INVALID'
  /** `publish()` of an id whose file is not there (never written, removed, or swept). */
  | 'ARTIFACT_MISSING'
  /** A signing secret shorter than 32 bytes. */
  | 'ARTIFACT_SECRET_WEAK';

export class ArtifactError extends DocsyncError {
  declare readonly code: ArtifactErrorCode;

  constructor(code: ArtifactErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(code, message, options);
  }
}
