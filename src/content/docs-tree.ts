// The content of a space as docs teams keep it in git: nested pages of markdown and attached files.
// Shared by the emulator (zip import), the bundler (git folder to zip) and the exporter (space to files).

/** One page. Its children are `pages`, in reading order. */
export interface DocsPage {
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
  /** Top-level pages in reading order; the first is the space's first page (README.md). */
  pages: DocsPage[];
  /** Files in path order. */
  files: DocsFile[];
}
