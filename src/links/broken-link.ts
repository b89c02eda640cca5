// A broken link as docsync reports it: the page it is written on and what it points to. Read from
// the service's link check, compared between checks and rendered in the link comment.

export interface BrokenLink {
  pageId: string;
  pageTitle: string;
  pagePath?: string | undefined;
  /** What the link points to: an address, or the id of a missing page or file. */
  target: string;
}
