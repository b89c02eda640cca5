// Where a broken link is written, in words, the same in the log, the link comment and every report
// of `docsync once`: the file and line in git, or why there is no line to give. Nothing is guessed.
import type { BrokenLink } from './broken-link.js';

/** `docs/guide.md:12:5`; or the file and that its line is not known; or that the page has no file. */
export function linkPlace(link: BrokenLink): string {
  if (link.noGitFile === true) return 'no file in git: the page was made in the service';
  if (link.sourcePath === undefined) return 'file in git not known';
  if (link.file === undefined) return `${link.sourcePath} in the docs folder, line not known`;
  if (link.line === undefined) return `${link.file}, line not known`;
  return link.column === undefined ? `${link.file}:${link.line}` : `${link.file}:${link.line}:${link.column}`;
}

/** Why a link has no line, for reports that hold the file and line in fields of their own. */
export function unknownLineReason(link: BrokenLink): string | undefined {
  if (link.noGitFile === true) return 'the page was made in the service and has no file in git';
  if (link.sourcePath === undefined) return 'the service did not name the file in git of the page';
  if (link.line === undefined) return 'the link could not be found in the file in git';
  return undefined;
}
