// The structure of a docs folder before any page is read: which pages there are, in which order,
// nested how, grouped how, from the paths and SUMMARY.md alone. The import reads it to warn about
// SUMMARY.md problems without reading every page; folderToTree fills it in with markdown and titles;
// the export compares git's outline with the space's to rewrite only the SUMMARY.md lines that changed.

/** A page of the outline; `line` is its 1-based line in SUMMARY.md, absent for pages it does not list. */
export type OutlineEntry =
  | {
      kind: 'document';
      /** Normalised path of the page's file, relative to the docs root. */
      path: string;
      /** The summary's link text, escapes resolved and whitespace collapsed; '' when it gives none. */
      title: string;
      line?: number;
      pages: OutlineEntry[];
    }
  | { kind: 'group'; title: string; line: number; pages: OutlineEntry[] }
  | { kind: 'link'; title: string; href: string; line: number }
  | { kind: 'placeholder'; title: string; line: number; pages: OutlineEntry[] };

/** What happens to markdown pages that a SUMMARY.md does not list (without a summary, all are pages). */
export type UnlistedPages =
  /** Not pages: the service's git sync reads only what the summary lists. The files stay in git. */
  | 'skip'
  /** Pages after the listed ones, each under the README of the nearest folder above it. */
  | 'append';

export interface OutlineOptions {
  /** File name of a folder's main page; at the root, the first page. Default `README.md`. */
  readme?: string;
  /** Path of the summary from the folder's root. Default `SUMMARY.md`. */
  summary?: string;
  /** Default `skip`, the service's rule. */
  unlisted?: UnlistedPages;
}
