// `docsync openapi validate <file|url>`: the validation a refresh runs before it uploads, for a
// pipeline or an editor: the document read (its `$ref`s bundled and confined as the refresh
// confines them) and validated as Swagger 2.0 or OpenAPI 3.x. Exit 0 when valid; 1 when it cannot be
// read or is not valid, each problem on stderr as `file:line #/pointer message`; 2 on bad usage.
import type { OpenApiInvalidError } from '../openapi/openapi-invalid-error.js';
import { operationsOf } from '../openapi/operation-fingerprints.js';
import { pointerLines } from '../openapi/pointer-lines.js';
import type { ArgumentRead } from '../openapi/read-openapi-argument.js';
import type { CliIo } from './cli-io.js';
import { EXIT } from './exit-codes.js';
import { argumentLimits, type OpenApiReadFlags, readArgument } from './openapi-read-flags.js';

/** A problem as the commands print it: where (file, line, pointer) and what. */
export interface LocatedProblem {
  /** The file the problem is in: the document, or a file one of its `$ref`s names. */
  file: string;
  /** The line in that file: where the parser found it (a duplicate key), or where the pointer is. */
  line?: number;
  /** The column, when the parser found the problem in the text (a duplicate key). */
  column?: number;
  pointer: string;
  message: string;
}

export async function openApiValidateCommand(
  argument: string,
  flags: OpenApiReadFlags,
  io: CliIo,
): Promise<number> {
  const limits = await argumentLimits(flags, io, 'validate', [argument]);
  if (limits === undefined) return EXIT.invalid;
  const read = await readArgument(argument, limits, io, 'validate');
  if (read === undefined) return EXIT.failure;
  if (!read.ok) {
    writeInvalid(read, flags, io);
    return EXIT.failure;
  }
  const { loaded } = read;
  const operations = [...operationsOf(loaded.document)].length;
  if (flags.json === true) {
    io.stdout.write(
      `${JSON.stringify({ source: read.label, valid: true, version: loaded.version, operations, refFiles: loaded.refFiles })}\n`,
    );
  } else {
    const files = loaded.refFiles === 0 ? '' : `, with ${loaded.refFiles} file(s) its $refs name`;
    const kind = loaded.version === '2.0' ? 'Swagger 2.0' : `OpenAPI ${loaded.version}`;
    io.stdout.write(`${read.label}: valid ${kind} document, ${operations} operation(s)${files}\n`);
  }
  return EXIT.ok;
}

/** Each problem of an invalid document, located by line where the text has its pointer. */
export function locateProblems(label: string, bytes: Buffer, error: OpenApiInvalidError): LocatedProblem[] {
  let lineOf: ((pointer: string) => number | undefined) | undefined;
  return error.problems.map((problem) => {
    if (problem.line !== undefined)
      return {
        file: problem.file ?? label,
        line: problem.line,
        ...(problem.column === undefined ? {} : { column: problem.column }),
        pointer: problem.pointer,
        message: problem.message,
      };
    if (problem.file !== undefined)
      return { file: problem.file, pointer: problem.pointer, message: problem.message };
    lineOf ??= pointerLines(bytes.toString('utf8'));
    const line = lineOf(problem.pointer);
    return {
      file: label,
      ...(line === undefined ? {} : { line }),
      pointer: problem.pointer,
      message: problem.message,
    };
  });
}

export function writeInvalid(
  read: Extract<ArgumentRead, { ok: false }>,
  flags: OpenApiReadFlags,
  io: CliIo,
): void {
  const problems = locateProblems(read.label, read.bytes, read.error);
  if (flags.json === true) {
    io.stdout.write(
      `${JSON.stringify({ source: read.label, valid: false, total: read.error.total, problems })}\n`,
    );
    return;
  }
  const more = read.error.total - problems.length;
  const lines = [
    `${read.label}: not a valid OpenAPI document, ${read.error.total} problem(s):`,
    ...problems.map((problem) => `  ${problemLine(problem)}`),
    ...(more > 0 ? [`  … and ${more} more: fix these and run again`] : []),
  ];
  io.stderr.write(`${lines.join('\n')}\n`);
}

/**
 * `api.yaml:12 #/paths/~1pets/get/responses must NOT have fewer than 1 properties`, or
 * `api.yaml:5:5 has the key "get" twice…` for a problem the parser placed in the text.
 */
export function problemLine(problem: LocatedProblem): string {
  if (problem.column !== undefined && problem.line !== undefined) {
    const pointer = problem.pointer === '' ? '' : ` #${problem.pointer}`;
    return `${problem.file}:${problem.line}:${problem.column}${pointer} ${problem.message}`;
  }
  const where = problem.line === undefined ? problem.file : `${problem.file}:${problem.line}`;
  return `${where} #${problem.pointer} ${problem.message}`;
}
