// The content of a space as docs teams keep it in git: nested pages and attached files. Shared by
// the emulator (zip import), the bundler (git folder to zip) and the exporter (space to files).
//
// Pages come in the service's kinds (`type` in its public document): documents (a markdown file),
// groups (a `## Heading` of SUMMARY.md: top level only, holding the entries below it), links (an
// entry pointing outside the docs) and placeholders (an entry with no file: in the service, an empty
// document page; in a folder, a SUMMARY line without a link).

/** A page of markdown read from a file. Its children are `pages`, in reading order. */
export interface DocsDocument {
  /** Absent in trees written before page kinds existed: a page without a kind is a document. */
  kind?: 'document';
  /** The service's page id, when the tree came from the service; a folder knows none. */
  id?: string;
  /** Source file path in the folder: posix, relative, normalised, e.g. `guides/install.md`. */
  path: string;
  title: string;
  /** Derived from the file name when read from a folder; not written to files. */
  slug: string;
  markdown: string;
  pages: DocsPage[];
}

/** A group of top-level pages under a title, from a SUMMARY.md heading. Never nested. */
export interface DocsGroup {
  kind: 'group';
  id?: string;
  title: string;
  slug: string;
  /** Documents, links and placeholders: a group holds no group. */
  pages: DocsPage[];
}

/** An entry pointing outside the docs (`* [Status](https://status.example.com)`). */
export interface DocsLink {
  kind: 'link';
  id?: string;
  title: string;
  slug: string;
  /** The address as written in the summary. */
  href: string;
}

/** An entry with a title but no file (`* Overview`): an empty page that can hold children. */
export interface DocsPlaceholder {
  kind: 'placeholder';
  id?: string;
  title: string;
  slug: string;
  pages: DocsPage[];
}

export type DocsPage = DocsDocument | DocsGroup | DocsLink | DocsPlaceholder;

/** A file that is not a page: an image or an attachment. */
export interface DocsFile {
  /** Path in the folder: posix, relative, normalised, e.g. `.gitbook/assets/logo.png`. */
  path: string;
  /** The last segment of `path`. */
  name: string;
  contentType: string;
  data: Buffer;
}

export interface DocsTree {
  /** Top-level pages in reading order; the first document is the space's first page (README.md). */
  pages: DocsPage[];
  /** Files in path order. */
  files: DocsFile[];
}

export function isDocument(page: DocsPage): page is DocsDocument {
  return page.kind === undefined || page.kind === 'document';
}

/** The pages below `page`: none for a link. */
export function childPages(page: DocsPage): DocsPage[] {
  return page.kind === 'link' ? [] : page.pages;
}

/** Every document of `pages` and their descendants, in reading order. */
export function allDocuments(pages: readonly DocsPage[]): DocsDocument[] {
  return pages.flatMap((page) => [...(isDocument(page) ? [page] : []), ...allDocuments(childPages(page))]);
}
