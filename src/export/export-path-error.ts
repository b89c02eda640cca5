// An export that would write a path outside the mapping's folder, or one git or a file system
// refuses: it fails closed, before anything is written, naming every offending page and file.
import { DocsyncError } from '../errors/docsync-error.js';

export interface ExportPathProblem {
  /** `page "Install" (page_12)` or `file logo.png (file_3)`. */
  subject: string;
  reason: string;
}

export class ExportPathError extends DocsyncError {
  readonly problems: readonly ExportPathProblem[];

  constructor(space: string, revision: string, problems: readonly ExportPathProblem[]) {
    const shown = problems.slice(0, 20).map((problem) => `${problem.subject}: ${problem.reason}`);
    const more = problems.length > shown.length ? `; and ${problems.length - shown.length} more` : '';
    super(
      'EXPORT_PATH_UNSAFE',
      `revision ${revision} of space ${space} was not exported, nothing was written: ${shown.join('; ')}${more}; rename these in the service`,
    );
    this.problems = problems;
  }
}
