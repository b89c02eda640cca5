// The content of a space as docs teams keep it in git: nested pages and attached files. Shared by
// the emulator (zip import), the bundler (git folder to zip) and the exporter (space to files).
//
// Pages come in the service's kinds (`type` in its public document): documents (a markdown file),
// groups (a `## Heading` of SUMMARY.md: top level only, holding the entries below it), links (an
// entry pointing outside the docs) and placeholders (an entry with no file: in the service, an empty
// document page; in a folder, a SUMMARY line without a link).

/**
 * A page of markdown read from a file. Its children are `pages`, in reading order. `M` is how its
 * markdown is held: the text, or for an export a blob of the git mirror (export/stored-text.ts).
 */
export interface DocsDocument<M = string> {
  /** Absent in trees written before page kinds existed: a page without a kind is a document. */
  kind?: 'document';
  /** The service's page id, when the tree came from the service; a folder knows none. */
  id?: string;
  /** Source file path in the folder: posix, relative, normalised, e.g. `guides/install.md`. */
  path: string;
  title: string;
  /** Derived from the file name when read from a folder; not written to files. */
  slug: string;
  markdown: M;
  pages: DocsPage<M>[];
}

/** A group of top-level pages under a title, from a SUMMARY.md heading. Never nested. */
export interface DocsGroup<M = string> {
  kind: 'group';
  id?: string;
  title: string;
  slug: string;
  /** Documents, links and placeholders: a group holds no group. */
  pages: DocsPage<M>[];
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
export interface DocsPlaceholder<M = string> {
  kind: 'placeholder';
  id?: string;
  title: string;
  slug: string;
  pages: DocsPage<M>[];
}

export type DocsPage<M = string> = DocsDocument<M> | DocsGroup<M> | DocsLink | DocsPlaceholder<M>;

/** A file that is not a page: an image or an attachment. `D` is how its bytes are held. */
export interface DocsFile<D = Buffer> {
  /** Path in the folder: posix, relative, normalised, e.g. `.gitbook/assets/logo.png`. */
  path: string;
  /** The last segment of `path`. */
  name: string;
  contentType: string;
  data: D;
}

export interface DocsTree<M = string, D = Buffer> {
  /** Top-level pages in reading order; the first document is the space's first page (README.md). */
  pages: DocsPage<M>[];
  /** Files in path order. */
  files: DocsFile<D>[];
}

export function isDocument<M>(page: DocsPage<M>): page is DocsDocument<M> {
  return page.kind === undefined || page.kind === 'document';
}

/** The pages below `page`: none for a link. */
export function childPages<M>(page: DocsPage<M>): DocsPage<M>[] {
  return page.kind === 'link' ? [] : page.pages;
}

/** Every document of `pages` and their descendants, in reading order. */
export function allDocuments<M>(pages: readonly DocsPage<M>[]): DocsDocument<M>[] {
  return pages.flatMap((page) => [...(isDocument(page) ? [page] : []), ...allDocuments(childPages(page))]);
}
