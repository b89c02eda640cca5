// Where a link found on a page points, judged against the pages and files of one revision, by the
// folder format's rules (docs/folder-format.md): a relative address resolves against the page's
// folder (a leading `/` against the docs root), percent-decoded, without `#anchor` and `?query`; it
// names a page's file, a file, or a folder whose README.md is a page. App addresses are `in-app`;
// every other address is `ok` and is never fetched.

import type { LinkStatus } from '../../api/schemas/service-enums.js';

export type { LinkStatus };

export type LinkTargetReference =
  | { kind: 'page'; page: string }
  | { kind: 'file'; file: string }
  | { kind: 'url'; url: string };

export interface ResolvedLink {
  status: LinkStatus;
  /** A page or file by id; an address as written when the link is broken or leaves the revision. */
  target: LinkTargetReference;
}

/** The revision a link is judged against: ids of its pages by source path and of its files by path. */
export interface LinkTargets {
  pageIdByPath: ReadonlyMap<string, string>;
  fileIdByPath: ReadonlyMap<string, string>;
  /** The service's own origin, such as `http://127.0.0.1:4010`: its addresses are `in-app`. */
  appOrigin: string;
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const HTTP = /^https?:/i;
const FOLDER_INDEX = 'README.md';

/** What `href`, written on the page with id `pageId` whose file is `pagePath`, points to. */
export function resolveLink(
  href: string,
  page: { id: string; path: string },
  targets: LinkTargets,
): ResolvedLink {
  const address = href.trim();
  if (address.startsWith('//')) return resolveUrl(`https:${address}`, targets.appOrigin);
  if (SCHEME.test(address)) return resolveUrl(address, targets.appOrigin);

  const broken: ResolvedLink = { status: 'broken', target: { kind: 'url', url: href } };
  const end = firstOf(address, '?', '#');
  // `#anchor` alone: a place on the page itself.
  if (end === 0) return { status: 'ok', target: { kind: 'page', page: page.id } };
  const folder = page.path.slice(0, page.path.lastIndexOf('/') + 1);
  const written = percentDecoded(address.slice(0, end));
  const path = normalised(written.startsWith('/') ? written : `${folder}${written}`);
  if (path === undefined) return broken;
  const pageId = targets.pageIdByPath.get(path);
  if (pageId !== undefined) return { status: 'ok', target: { kind: 'page', page: pageId } };
  const fileId = targets.fileIdByPath.get(path);
  if (fileId !== undefined) return { status: 'ok', target: { kind: 'file', file: fileId } };
  const index = targets.pageIdByPath.get(path === '' ? FOLDER_INDEX : `${path}/${FOLDER_INDEX}`);
  if (index !== undefined) return { status: 'ok', target: { kind: 'page', page: index } };
  return broken;
}

function resolveUrl(url: string, appOrigin: string): ResolvedLink {
  const target = { kind: 'url', url } as const;
  if (!HTTP.test(url)) return { status: 'ok', target };
  // An http address that names no host leads nowhere.
  if (!URL.canParse(url)) return { status: 'broken', target };
  return { status: new URL(url).origin === appOrigin ? 'in-app' : 'ok', target };
}

/**
 * `path` as a path from the docs root: `/` and `\` separate folders, empty and `.` segments go, `..`
 * goes up; `''` is the root itself; undefined when `..` leaves the root.
 */
function normalised(path: string): string | undefined {
  const segments: string[] = [];
  for (const segment of path.split(/[/\\]/)) {
    if (segment === '' || segment === '.') continue;
    if (segment !== '..') segments.push(segment);
    else if (segments.pop() === undefined) return undefined;
  }
  return segments.join('/');
}

function percentDecoded(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    // A `%` that starts no escape (`100%.md`) is a character of the name.
    return text;
  }
}

function firstOf(text: string, ...characters: string[]): number {
  let first = text.length;
  for (const character of characters) {
    const at = text.indexOf(character);
    if (at >= 0 && at < first) first = at;
  }
  return first;
}
