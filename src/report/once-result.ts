// What one run of `docsync once` found, as every report format reads it: the import's report, the
// documents of the change request's link check and its broken links placed in git, or the failure.
import type { ImportReport } from '../import/run-import.js';
import type { BrokenLink } from '../links/broken-link.js';
import type { CheckedPage } from '../links/read-link-check.js';

export interface OnceSuccess {
  mapping: string;
  /** The mapping's docs folder in the repository: warnings name files inside it. */
  folder: string;
  report: ImportReport;
  /** The change request's link check; undefined when there was no change request to check. */
  links?: { pages: readonly CheckedPage[]; broken: readonly BrokenLink[] } | undefined;
}

export interface OnceFailure {
  mapping: string;
  failure: { code: string; message: string };
}

export type OnceResult = OnceSuccess | OnceFailure;

export function isFailure(result: OnceResult): result is OnceFailure {
  return 'failure' in result;
}
