// The problems of a text that cannot be read as an OpenAPI document, as an OpenApiInvalidError
// carries them: every duplicate key with its line and column as fields, so that the CLI puts
// `file:line:col` before each and `--json` gives them, rather than only the first in a message.
import type { OpenApiProblem } from './openapi-invalid-error.js';
import { duplicateKeyMessage, type TextProblem } from './parse-openapi-text.js';

/** `file`: the `$ref`'d file the text is, when it is not the main document. */
export function textProblems(problems: readonly TextProblem[], file?: string): OpenApiProblem[] {
  return problems.map((problem) => {
    const where = file === undefined ? {} : { file };
    // Other problems say their place in their message, as the service's own parser does.
    if (problem.kind !== 'duplicate-key' || problem.key === undefined || problem.line === undefined)
      return { pointer: '', message: problem.message, ...where };
    return {
      pointer: '',
      message: duplicateKeyMessage(problem.key),
      ...where,
      line: problem.line,
      ...(problem.column === undefined ? {} : { column: problem.column }),
    };
  });
}
