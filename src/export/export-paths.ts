// The paths one export plan hands out (revision-to-tree.ts): each normalised through
// safeRelativePath, claimed once whatever its letter case, and a new one made free of every claimed
// path and every path git's folder holds. Every refusal is collected in `problems`, named together.
import { safeRelativePath } from '../content/safe-relative-path.js';
import type { ExportPathProblem } from './export-path-error.js';

const SERVICE_README = 'README.md';

export class ExportPaths {
  readonly problems: ExportPathProblem[] = [];
  readonly #claimed = new Map<string, { path: string; subject: string }>();
  readonly #existingKeys: ReadonlySet<string>;

  /**
   * `readme`: the first page's file name in git, where the service's README.md goes; `existing`:
   * every path of git's docs folder now.
   */
  constructor(
    readonly readme: string,
    readonly existing: ReadonlySet<string>,
  ) {
    this.#existingKeys = new Set([...existing].map((path) => path.toLowerCase()));
  }

  /** `raw` as a safe path of the folder (the service's README.md as the readme), or a problem. */
  normalised(raw: string, subject: string): string | undefined {
    try {
      const path = safeRelativePath(raw, { subject: 'path', root: "mapping's folder" });
      return path === SERVICE_README ? this.readme : path;
    } catch (error) {
      this.problems.push({ subject, reason: (error as Error).message });
      return undefined;
    }
  }

  /** `path`, claimed for `subject`, or undefined (and a problem) when another holds it. */
  claim(path: string, subject: string): string | undefined {
    const key = path.toLowerCase();
    const other = this.#claimed.get(key);
    // Case-insensitive file systems (macOS, Windows) would make these one file; git already holding
    // both exact paths means exporting them as they are makes nothing worse.
    if (
      other !== undefined &&
      (other.path === path || !(this.existing.has(path) && this.existing.has(other.path)))
    ) {
      this.problems.push({ subject, reason: `path ${path} is also the path of ${other.subject}` });
      return undefined;
    }
    if (other === undefined) this.#claimed.set(key, { path, subject });
    return path;
  }

  /** `wanted`, or the first of `variant(2)`, `variant(3)`... that nothing claims and git does not hold. */
  free(wanted: string, variant: (n: number) => string): string {
    let path = wanted;
    for (
      let n = 2;
      this.#claimed.has(path.toLowerCase()) || this.#existingKeys.has(path.toLowerCase());
      n += 1
    )
      path = variant(n);
    return path;
  }
}
