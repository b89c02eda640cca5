// A problem in a docs folder that docsync (and the service's own git sync) reads past instead of
// refusing the whole folder: one bad SUMMARY.md line, a file left out. Each names the file and, where
// it has one, the line, so the writer can find it; shown in the log, /status, `docsync once` and the
// change request's docsync comment.
import { z } from 'zod';

export const CONTENT_WARNING_CODES = [
  'SUMMARY_DUPLICATE',
  'SUMMARY_MISSING_FILE',
  'SUMMARY_FOLDER_LINK',
  'SUMMARY_ENTRY_UNCLEAR',
  'PAGE_UNLISTED',
  'FILE_LEFT_OUT',
  'PATH_CASE_CLASH',
  'README_MISSING',
] as const;

export type ContentWarningCode =
  /** A SUMMARY.md entry naming a page another entry already placed: the first place is kept. */
  | 'SUMMARY_DUPLICATE'
  /** A SUMMARY.md entry whose file is not in the folder, or is not a markdown page. */
  | 'SUMMARY_MISSING_FILE'
  /** A SUMMARY.md entry linking to a folder with no readme of its own. */
  | 'SUMMARY_FOLDER_LINK'
  /** A SUMMARY.md line read differently from what it seems to say (text after the link, a stray readme). */
  | 'SUMMARY_ENTRY_UNCLEAR'
  /** A markdown page no SUMMARY.md entry lists, left out (the service's rule) or appended (configured). */
  | 'PAGE_UNLISTED'
  /** A file left out of the import: over a size limit, or a second README beside the configured readme. */
  | 'FILE_LEFT_OUT'
  /** Paths that differ only in letter case: they cannot be checked out together on macOS or Windows. */
  | 'PATH_CASE_CLASH'
  /** No readme at the docs root: the service opens another page first (named in the message). */
  | 'README_MISSING';

export interface ContentWarning {
  code: ContentWarningCode;
  /** The file the warning is about, relative to the docs root (SUMMARY.md for a summary line). */
  file: string;
  /** 1-based line in `file`, when the warning is about one line. */
  line?: number;
  /** One sentence: what was found and what docsync did; the fix when there is one. */
  message: string;
}

/** Warnings read back from state, checked: an unknown code (a newer docsync wrote it) is kept as text. */
export const contentWarningSchema = z.object({
  code: z.string(),
  file: z.string(),
  line: z.number().int().positive().optional(),
  message: z.string(),
});

/** What locates a warning: a file of the docs folder and, for a warning about one line, its line. */
export interface WarningPlace {
  file: string;
  line?: number | undefined;
}

/**
 * `SUMMARY.md:12`, or the file alone for a warning about a whole file (an unlisted page): where a
 * warning points, in logs, `docsync status`, the status page and the change request's comment.
 */
export function warningLocation(warning: WarningPlace): string {
  return warning.line === undefined ? warning.file : `${warning.file}:${warning.line}`;
}
