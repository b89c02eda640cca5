// A configuration that cannot be used: each problem names its key path and, when known, its line.
import { DocsyncError } from './docsync-error.js';

export interface ConfigProblem {
  /** Key path in the style `mappings[0].git.branch`; empty for the whole document. */
  path: string;
  message: string;
  /** 1-based line and column in the file, when the problem points at a node of it. */
  line?: number;
  column?: number;
}

export class ConfigError extends DocsyncError {
  readonly file: string;
  readonly problems: readonly ConfigProblem[];

  constructor(file: string, problems: readonly ConfigProblem[], options: { cause?: unknown } = {}) {
    super('CONFIG_INVALID', `invalid configuration in ${file}: ${problems.length} problem(s)`, options);
    this.file = file;
    this.problems = problems;
  }

  /** One line per problem: `mappings[0].git.branch: Required (docsync.yaml:12:7)`. */
  lines(): string[] {
    return this.problems.map((problem) => {
      const where =
        problem.line === undefined ? this.file : `${this.file}:${problem.line}:${problem.column ?? 1}`;
      const subject = problem.path === '' ? '(document)' : problem.path;
      return `${subject}: ${problem.message} (${where})`;
    });
  }
}
