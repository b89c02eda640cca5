// The structure a SUMMARY.md gives a space, without its lines: what the export compares between the
// space and git's current summary (read by readOutline) to decide whether the summary changes, and
// what it renders when it must.
import type { OutlineEntry } from './docs-outline.js';
import { childPages, type DocsPage, isDocument } from './docs-tree.js';

export type TocEntry =
  | { kind: 'document'; path: string; title: string; pages: TocEntry[] }
  | { kind: 'group'; title: string; pages: TocEntry[] }
  | { kind: 'link'; title: string; href: string }
  | { kind: 'placeholder'; title: string; pages: TocEntry[] };

/** Titles on one line, as a summary holds them. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The summary entries of a tree's pages; a document's title falls back to `implied` when empty. */
export function tocEntries<M>(
  pages: readonly DocsPage<M>[],
  implied: (path: string) => string | undefined,
): TocEntry[] {
  return pages.map((page): TocEntry => {
    if (isDocument(page)) {
      const title = oneLine(page.title) || (implied(page.path) ?? page.path);
      return { kind: 'document', path: page.path, title, pages: tocEntries(page.pages, implied) };
    }
    if (page.kind === 'link') return { kind: 'link', title: oneLine(page.title), href: page.href };
    return { kind: page.kind, title: oneLine(page.title), pages: tocEntries(childPages(page), implied) };
  });
}

/**
 * Whether `space` has the structure `current` (read from git's summary) gives: same kinds, paths,
 * addresses, nesting and titles. A summary entry without a title counts as giving the page's own
 * (`implied`) title.
 */
export function sameStructure(
  space: readonly TocEntry[],
  current: readonly OutlineEntry[],
  implied: (path: string) => string | undefined,
): boolean {
  return (
    space.length === current.length &&
    space.every((entry, index) => {
      const other = current[index];
      return other !== undefined && sameEntry(entry, other, implied);
    })
  );
}

/** One entry alike, children aside. */
export function sameHead(
  entry: TocEntry,
  other: OutlineEntry,
  implied: (path: string) => string | undefined,
): boolean {
  if (entry.kind !== other.kind) return false;
  if (entry.kind === 'document' && other.kind === 'document') {
    return entry.path === other.path && entry.title === titleGiven(other.title, implied(other.path));
  }
  // A link without text reads back titled by its address.
  if (entry.kind === 'link' && other.kind === 'link')
    return entry.href === other.href && entry.title === (other.title || other.href);
  return entry.title === other.title;
}

function sameEntry(
  entry: TocEntry,
  other: OutlineEntry,
  implied: (path: string) => string | undefined,
): boolean {
  if (!sameHead(entry, other, implied)) return false;
  const children = entry.kind === 'link' ? [] : entry.pages;
  const otherChildren = other.kind === 'link' ? [] : other.pages;
  return sameStructure(children, otherChildren, implied);
}

/** The title a summary entry gives its page: its own text, else the page's. */
export function titleGiven(summaryTitle: string, impliedTitle: string | undefined): string {
  return summaryTitle !== '' ? summaryTitle : (impliedTitle ?? '');
}
