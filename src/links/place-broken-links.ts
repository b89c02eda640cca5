// Where each broken link is written in git: the service's link check names the page and the target,
// and the page's source file (read from git at the commit the check is about) names the line. Pure:
// the files come in as text, read by locate-broken-links.ts.
import { posix } from 'node:path';
import { DEFAULT_GITBOOK_LAYOUT, type GitbookLayout } from '../content/gitbook-layout.js';
import { findLinks, type MarkdownLink } from '../content/markdown-links.js';
import { safeRelativePath } from '../content/safe-relative-path.js';
import type { BrokenLink } from './broken-link.js';

/**
 * Where the bundle's files are in the mapped folder, by its `.gitbook.yaml`: the service names a page
 * by its path in the bundle, which starts at `root` and names the configured `readme` README.md.
 */
export type FolderLayout = Pick<GitbookLayout, 'root' | 'readme'>;

const BUNDLE_README = DEFAULT_GITBOOK_LAYOUT.readme;

/**
 * The broken links with `file`, `line` and `column` set where they can be known. A target written
 * several times on a page becomes one broken link per place, so each can be fixed where it is. A link
 * keeps no line when its page was made in the service (no `sourcePath`), when its file could not be
 * read (`sources` has no text for it), or when no link on the page names the target as written (the
 * service may name a missing page by an id): nothing is guessed.
 *
 * @param folder the mapping's docs folder in the repository (`.` for the root)
 * @param sources the text of each page's source file, by `sourcePath`
 * @param layout the folder's `.gitbook.yaml` layout, where the service's paths are in git
 */
export function placeBrokenLinks(
  broken: readonly BrokenLink[],
  folder: string,
  sources: ReadonlyMap<string, string | undefined>,
  layout: FolderLayout = DEFAULT_GITBOOK_LAYOUT,
): BrokenLink[] {
  const linksOf = new Map<string, MarkdownLink[]>();
  const placed = new Set<string>();
  return broken.flatMap((link) => {
    if (link.sourcePath === undefined) return [link];
    const file = repositoryPath(folder, link.sourcePath, layout);
    if (file === undefined) return [link];
    const markdown = sources.get(link.sourcePath);
    if (markdown === undefined) return [{ ...link, file }];
    let links = linksOf.get(link.sourcePath);
    if (links === undefined) {
      links = findLinks(markdown);
      linksOf.set(link.sourcePath, links);
    }
    const matches = links.filter((written) => namesTarget(written.href, link.target));
    // The service lists a target once per page; should it list one twice, its places are given once.
    const key = `${link.pageId}\0${link.target}`;
    if (matches.length === 0 || placed.has(key)) return [{ ...link, file }];
    placed.add(key);
    return matches.map((match) => ({ ...link, file, line: match.line, column: match.column }));
  });
}

/**
 * The repository path of the service's `sourcePath` (a path in the bundle): under the mapping's
 * `folder` and the layout's root, the configured readme by its own name. Undefined for a path that
 * would leave the folder.
 */
export function repositoryPath(
  folder: string,
  sourcePath: string,
  layout: FolderLayout = DEFAULT_GITBOOK_LAYOUT,
): string | undefined {
  try {
    const inRoot = safeRelativePath(sourcePath);
    const inFolder = posix.join(layout.root, inRoot === BUNDLE_README ? layout.readme : inRoot);
    return folder === '.' || folder === '' ? inFolder : posix.join(folder, inFolder);
  } catch {
    return undefined;
  }
}

/** Whether a link written as `href` is the one the service names `target`: as written, or percent-decoded. */
function namesTarget(href: string, target: string): boolean {
  const written = href.trim();
  const named = target.trim();
  return written === named || decoded(written) === decoded(named);
}

function decoded(text: string): string {
  try {
    return decodeURI(text);
  } catch {
    return text;
  }
}
