// The findings of a run as every report lists them: one item per broken link (in a stable order,
// pages then lines) and one per import warning, each with its file in the repository when known.
import { posix } from 'node:path';
import { warningLocation } from '../content/content-warning.js';
import type { BrokenLink } from '../links/broken-link.js';
import { repositoryPath } from '../links/place-broken-links.js';
import type { OnceSuccess } from './once-result.js';

/** The label people know a page by: its path on the site, else its title. */
export function pageLabel(link: Pick<BrokenLink, 'pagePath' | 'pageTitle'>): string {
  return link.pagePath ?? link.pageTitle;
}

/** The broken links sorted by page, then line, then target: the same findings give the same report. */
export function sortedBrokenLinks(result: OnceSuccess): BrokenLink[] {
  return [...(result.links?.broken ?? [])].sort(
    (a, b) =>
      compare(pageLabel(a), pageLabel(b)) ||
      // Links with a line first, in the file's order; those without one after them.
      (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER) ||
      (a.column ?? 0) - (b.column ?? 0) ||
      compare(a.target, b.target),
  );
}

export interface WarningItem {
  code: string;
  message: string;
  /** The warning's file in the repository (the docs folder's file under the mapping's folder). */
  file: string;
  line?: number | undefined;
  /** `SUMMARY.md:12` as the warning names it, relative to the docs folder. */
  place: string;
}

export function warningItems(result: OnceSuccess): WarningItem[] {
  return (result.report.warnings ?? []).map((warning) => ({
    code: warning.code,
    message: warning.message,
    file: warningFile(result.folder, warning.file),
    line: warning.line,
    place: warningLocation(warning),
  }));
}

/**
 * The warning's file in the repository. Warnings name normalised paths, but for a name that is not
 * UTF-8, shown with its bytes as \xNN: joined as it is, its backslashes are not separators.
 */
function warningFile(folder: string, file: string): string {
  if (!file.includes('\\')) return repositoryPath(folder, file) ?? file;
  return folder === '.' || folder === '' ? file : posix.join(folder, file);
}

/** One sentence about a broken link, the same in every format. */
export function brokenLinkMessage(link: BrokenLink): string {
  return `page ${pageLabel(link)} links to ${link.target}, which does not exist`;
}

function compare(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}
