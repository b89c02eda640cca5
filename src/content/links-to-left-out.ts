// How many links a proposed import.skipFilesOver would break: the links on the bundle's pages whose
// target it leaves out, found and resolved as the service's link check does (markdown-links.ts).
import { type BrokenLinks, BundleTooLargeError } from './bundle-too-large-error.js';
import type { DocsTree } from './docs-tree.js';
import { classifyLink, extractLinks } from './markdown-links.js';
import { isPage, type SizedFile } from './propose-skip-files-over.js';

/** A page's path in the docs root and its bytes. */
export interface PageData {
  path: string;
  data: Buffer;
}

const NO_DATA = Buffer.alloc(0);

/**
 * `error` with the links its proposal would break counted (see countLinksToLeftOut), the pages read
 * with `read` from their sources (found by path in `sources`), which gives their contents in the
 * order asked; any other error as it is.
 */
export async function withLinksToLeftOut<T>(
  error: unknown,
  sources: ReadonlyMap<string, T>,
  read: (sources: readonly T[]) => AsyncIterable<Buffer>,
): Promise<unknown> {
  if (!(error instanceof BundleTooLargeError) || error.tooLarge.proposal.kind !== 'skip') return error;
  const { files, proposal } = error.tooLarge;
  const leftOut = new Set(proposal.leftOut.map((file) => file.path));
  const pages = files.flatMap((file) => {
    const source = sources.get(file.path);
    return isPage(file) && !leftOut.has(file.path) && source !== undefined
      ? [{ path: file.path, source }]
      : [];
  });
  async function* contents(): AsyncGenerator<PageData> {
    let index = 0;
    for await (const data of read(pages.map((page) => page.source))) {
      const page = pages[index++];
      if (page !== undefined) yield { path: page.path, data };
    }
  }
  return error.withBrokenLinks(await countLinksToLeftOut(contents(), files, proposal.leftOut));
}

/**
 * The links on `pages` whose target, resolved against `files` (the bundle before anything is left
 * out), is one of `leftOut`, and how many pages hold them. A page naming none of the left-out files
 * (nor `%`, `&` or `\`, by which a link can spell a name otherwise) is not parsed.
 */
export async function countLinksToLeftOut(
  pages: AsyncIterable<PageData>,
  files: readonly SizedFile[],
  leftOut: readonly SizedFile[],
): Promise<BrokenLinks> {
  const gone = new Set(leftOut.map((file) => file.path));
  const tree = bundleTree(files);
  const mayName = new RegExp(
    [...new Set(leftOut.map((file) => escaped(file.path.slice(file.path.lastIndexOf('/') + 1))))]
      .concat('[%&\\\\]')
      .join('|'),
  );
  const counted: BrokenLinks = { links: 0, pages: 0 };
  for await (const page of pages) {
    const markdown = page.data.toString('utf8');
    if (!mayName.test(markdown)) continue;
    let links = 0;
    for (const href of extractLinks(markdown)) {
      const { status, target } = classifyLink(href, page.path, tree, { appOrigins: [] });
      if (status !== 'ok') continue;
      const path = target.kind === 'file' ? target.file : target.kind === 'page' ? target.page : undefined;
      if (path !== undefined && gone.has(path)) links += 1;
    }
    counted.links += links;
    if (links > 0) counted.pages += 1;
  }
  return counted;
}

/** The files as a tree classifyLink resolves against: every page a document, flat; no content. */
function bundleTree(files: readonly SizedFile[]): DocsTree {
  return {
    pages: files
      .filter(isPage)
      .map((file) => ({ path: file.path, title: '', slug: '', markdown: '', pages: [] })),
    files: files
      .filter((file) => !isPage(file))
      .map((file) => ({ path: file.path, name: '', contentType: '', data: NO_DATA })),
  };
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
