// An OpenAPI document docsync refuses to upload: its first problems, each with the JSON pointer of
// where it is, so that whoever owns the spec can find and fix them.
import { DocsyncError } from '../errors/docsync-error.js';

export interface OpenApiProblem {
  /** A JSON pointer into the document (`/paths/~1pets/get`), or `` for the whole document. */
  pointer: string;
  message: string;
  /** The file the problem is in, when it is not the main document (a `$ref`'d file). */
  file?: string;
  /** Where in the file's text, from 1, when the problem is in the text itself (a duplicate key). */
  line?: number;
  column?: number;
}

/** How many problems an error carries at most: enough to act on, not a wall of text. */
export const MAX_PROBLEMS = 10;

export class OpenApiInvalidError extends DocsyncError {
  readonly problems: readonly OpenApiProblem[];
  /** How many problems were found in all, including those left out of `problems`. */
  readonly total: number;

  constructor(source: string, problems: readonly OpenApiProblem[]) {
    const first = problems.slice(0, MAX_PROBLEMS);
    const lines = first.map(formatProblem);
    const more = problems.length > first.length ? `; and ${problems.length - first.length} more` : '';
    super('OPENAPI_INVALID', `${source} is not a valid OpenAPI document: ${lines.join('; ')}${more}`);
    this.problems = first;
    this.total = problems.length;
  }
}

export function formatProblem(problem: OpenApiProblem): string {
  if (problem.line !== undefined) {
    const at = `${problem.line}:${problem.column ?? 1}`;
    const where =
      problem.file === undefined ? `line ${at.replace(':', ', column ')}:` : `${problem.file}:${at}`;
    return `${where}${problem.pointer === '' ? '' : ` #${problem.pointer}`} ${problem.message}`;
  }
  const where = `${problem.file === undefined ? '' : `${problem.file}`}#${problem.pointer}`;
  return `${where} ${problem.message}`;
}
