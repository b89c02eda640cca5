// A broken link as docsync reports it: the page it is written on, what it points to, and where it
// is written in git when that can be known. Read from the service's link check, placed in the
// page's file (place-broken-links.ts), compared between checks and rendered in the link comment and
// the reports of `docsync once`.

export interface BrokenLink {
  pageId: string;
  pageTitle: string;
  pagePath?: string | undefined;
  /** What the link points to: an address, or the id of a missing page or file. */
  target: string;
  /**
   * The page's source file in the docs folder, as the service records it (the page's `git.path`);
   * absent for a page made in the service, which has no file in git.
   */
  sourcePath?: string | undefined;
  /**
   * True when the service records no file for the page: it was made in the service. Absent when not
   * known (records of the main content's list and older records name no file either way).
   */
  noGitFile?: boolean | undefined;
  /** That file's path in the repository (the mapping's folder and `sourcePath`), once placed. */
  file?: string | undefined;
  /** 1-based line and column of the link in `file`; absent when the link was not found there. */
  line?: number | undefined;
  column?: number | undefined;
}
