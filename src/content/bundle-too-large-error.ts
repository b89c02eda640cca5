// A docs root past the service's size limits (ARCHIVE_TOO_LARGE), with what to change: the
// import.skipFilesOver value that makes it fit, what that leaves out, and, once the pages were read,
// how many links to those files would break.

import type { ImportLimits } from '../api/schemas/service-import-limits.js';
import { formatBytes } from '../config/byte-size.js';
import { ContentError } from './content-error.js';
import type { SizedFile, SkipProposal } from './propose-skip-files-over.js';
import { configSize } from './readable-size.js';

/** Links on the bundle's pages whose target a proposal leaves out, and the pages holding them. */
export interface BrokenLinks {
  links: number;
  pages: number;
}

export interface TooLarge {
  /** What is wrong and where, without the fix: `a file is over the limit ...`. */
  problems: string;
  proposal: SkipProposal;
  /** The files the bundle would hold without the proposal: the pages whose links are counted. */
  files: readonly SizedFile[];
  limits: ImportLimits;
  /** The mapping's import.skipFilesOver, if set. */
  skipFilesOver: number | undefined;
  /** The largest file. */
  path: string | undefined;
}

const SHOWN = 10;

export class BundleTooLargeError extends ContentError {
  readonly tooLarge: TooLarge;
  readonly brokenLinks: BrokenLinks | undefined;

  constructor(tooLarge: TooLarge, brokenLinks?: BrokenLinks) {
    super(
      'ARCHIVE_TOO_LARGE',
      `${tooLarge.problems}. ${fixText(tooLarge, brokenLinks)}`,
      tooLarge.path === undefined ? {} : { path: tooLarge.path },
    );
    this.tooLarge = tooLarge;
    this.brokenLinks = brokenLinks;
  }

  /** The same refusal, its message saying how many links the proposal would break. */
  withBrokenLinks(brokenLinks: BrokenLinks): BundleTooLargeError {
    return new BundleTooLargeError(this.tooLarge, brokenLinks);
  }
}

/** What to do: the config line to add and what it leaves out, or why no setting helps. */
function fixText(tooLarge: TooLarge, brokenLinks: BrokenLinks | undefined): string {
  const { proposal, limits, skipFilesOver } = tooLarge;
  const split = 'split the docs root into folders with their own .gitbook.yaml, each imported on its own';
  switch (proposal.kind) {
    case 'skip': {
      const value = configSize(proposal.threshold);
      const setting =
        skipFilesOver === undefined
          ? `Set import.skipFilesOver of the mapping (import: { skipFilesOver: ${value} })`
          : `Lower import.skipFilesOver of the mapping from ${formatBytes(skipFilesOver)} to ${value} (import: { skipFilesOver: ${value} })`;
      const { leftOut } = proposal;
      const shown = leftOut.slice(0, SHOWN).map(sized).join(', ');
      const more = leftOut.length > SHOWN ? ` and ${count(leftOut.length - SHOWN)} more` : '';
      const files =
        leftOut.length === 1
          ? 'it leaves out 1 file, listed as a warning and kept in git'
          : `it leaves out ${count(leftOut.length)} files, each listed as a warning and kept in git`;
      return (
        `${setting}, the largest size that makes the rest fit: ${files}: ${shown}${more}` +
        `${linksText(brokenLinks, leftOut.length)}. Or move large files out of the docs root`
      );
    }
    case 'pages-over': {
      const over =
        proposal.pageBytes > limits.maxBytes
          ? `the pages alone (${count(proposal.pages)} markdown files) hold ${formatBytes(proposal.pageBytes)}, over the limit of ${formatBytes(limits.maxBytes)} per import`
          : `a page is over the limit of ${formatBytes(limits.maxFileBytes)} per file`;
      return (
        `No import.skipFilesOver setting makes the folder fit without leaving out pages: ${over}, ` +
        `so leaving out every other file would not be enough. Make the pages smaller, or ${split}`
      );
    }
    case 'pages-in-the-way': {
      const page = proposal.largestPage;
      return (
        'No import.skipFilesOver setting makes the folder fit without leaving out pages: with every file ' +
        `larger than the largest page, ${sized(page)}, left out, the rest still holds ${formatBytes(proposal.keptBytes)}, ` +
        `over the limit of ${formatBytes(limits.maxBytes)} per import. Move files of ${formatBytes(page.size)} or less ` +
        `out of the docs root, or ${split}`
      );
    }
    case 'none':
      return `No import.skipFilesOver setting makes the folder fit: move files out of the docs root, or ${split}`;
  }
}

function linksText(brokenLinks: BrokenLinks | undefined, files: number): string {
  if (brokenLinks === undefined) return '';
  const them = files === 1 ? 'it' : 'them';
  if (brokenLinks.links === 0) return `; no page links to ${them}`;
  const links = brokenLinks.links === 1 ? '1 link' : `${count(brokenLinks.links)} links`;
  const pages = brokenLinks.pages === 1 ? '1 page' : `${count(brokenLinks.pages)} pages`;
  return `; ${links} on ${pages} ${brokenLinks.links === 1 ? 'points' : 'point'} to ${them} and would break`;
}

function sized(file: SizedFile): string {
  return `${file.path} (${formatBytes(file.size)})`;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}
