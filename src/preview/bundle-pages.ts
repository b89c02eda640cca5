// The pages of a bundle as the service will read them (the same reading as the local service's
// import: docs/folder-format.md, unlisted pages left out), each at its path on the site, for a dry
// run to compare. Only markdown is kept: files are not pages. The bundle is bounded by the import
// limits (50 MiB by default), and its markdown is what the import would send anyway.
import { readFile } from 'node:fs/promises';
import { childPages, type DocsPage } from '../content/docs-tree.js';
import { readFolder } from '../content/folder-to-tree.js';
import { readZip } from '../content/read-zip.js';

export interface PreviewSourcePage {
  /** Slugs joined with `/`, a group's included, as the service gives a page's `path`. */
  path: string;
  /** The page's markdown: empty for a summary entry without a file. */
  markdown: string;
}

const MARKDOWN = /\.md$/i;
/** Tool files the service does not read as content (`.DS_Store`, `.gitkeep`), as it leaves them out. */
const NOT_CONTENT = /(^|\/)\.(?!gitbook\/)[^/]*$/;

/** The documents (and placeholders) of the zip at `file`, in reading order. */
export async function readBundlePages(
  file: string,
  limits: { maxBytes: number; maxFileBytes: number },
): Promise<PreviewSourcePage[]> {
  const entries = await readZip(await readFile(file), {
    maxTotalBytes: limits.maxBytes,
    maxEntryBytes: limits.maxFileBytes,
  });
  const markdown = new Map([...entries].filter(([path]) => MARKDOWN.test(path) && !NOT_CONTENT.test(path)));
  entries.clear();
  const { tree } = readFolder(markdown, { unlisted: 'skip' });
  return sitePages(tree.pages);
}

/** Documents and placeholders with their paths on the site; groups add their slug, links are no page. */
export function sitePages(pages: readonly DocsPage[], parent = ''): PreviewSourcePage[] {
  return pages.flatMap((page) => {
    if (page.kind === 'link') return [];
    const path = parent === '' ? page.slug : `${parent}/${page.slug}`;
    const own =
      page.kind === 'group' ? [] : [{ path, markdown: page.kind === 'placeholder' ? '' : page.markdown }];
    return [...own, ...sitePages(childPages(page), path)];
  });
}
