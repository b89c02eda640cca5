// Where each broken link is written in git: the service's link check names the page and the target,
// and the page's source file (read from git at the commit the check is about) names the line. Pure:
// the files come in as text, read by locate-broken-links.ts.
import { posix } from 'node:path';
import { findLinks, type MarkdownLink } from '../content/markdown-links.js';
import { safeRelativePath } from '../content/safe-relative-path.js';
import type { BrokenLink } from './broken-link.js';

/**
 * The broken links with `file`, `line` and `column` set where they can be known. A target written
 * several times on a page becomes one broken link per place, so each can be fixed where it is. A link
 * keeps no line when its page was made in the service (no `sourcePath`), when its file could not be
 * read (`sources` has no text for it), or when no link on the page names the target as written (the
 * service may name a missing page by an id): nothing is guessed.
 *
 * @param folder the mapping's docs folder in the repository (`.` for the root)
 * @param sources the text of each page's source file, by `sourcePath`
 */
export function placeBrokenLinks(
  broken: readonly BrokenLink[],
  folder: string,
  sources: ReadonlyMap<string, string | undefined>,
): BrokenLink[] {
  const linksOf = new Map<string, MarkdownLink[]>();
  const placed = new Set<string>();
  return broken.flatMap((link) => {
    if (link.sourcePath === undefined) return [link];
    const file = repositoryPath(folder, link.sourcePath);
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

/** `folder/sourcePath` as a clean repository path; undefined for a path that would leave the folder. */
export function repositoryPath(folder: string, sourcePath: string): string | undefined {
  try {
    const inFolder = safeRelativePath(sourcePath);
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
