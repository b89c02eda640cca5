// What a dry run of an import shows: the pages the import would add, change and remove, by page
// path, compared with the change request it would update, or with the space's live content when it
// would open a new one. Counts cover every page; the list holds the first pages by path (up to
// MAX_LISTED_PAGES: `docsync once` lists that many, the daemon's dry run fewer).

export type PageChange = 'added' | 'changed' | 'removed';

export interface PreviewPage {
  /** The page's path on the site: its slugs joined with `/`, a group's included (`guides/install`). */
  path: string;
  change: PageChange;
  /** Lines the import adds to the page's markdown: all of them for an added page. */
  linesAdded: number;
  /** Lines it removes: all of them for a removed page. */
  linesRemoved: number;
}

/** What the bundle was compared with. */
export type PreviewBase =
  | { kind: 'change-request'; id: string; number: number; url?: string; revision: string }
  | { kind: 'live'; revision: string };

export interface ContentPreview {
  against: PreviewBase;
  added: number;
  changed: number;
  removed: number;
  unchanged: number;
  /** Lines added and removed over every page. */
  linesAdded: number;
  linesRemoved: number;
  /** The first added, changed or removed pages, by path. */
  pages: PreviewPage[];
  /** Added, changed or removed pages not in `pages`. */
  notListed: number;
  /** True when some page's line counts are a lower bound (two very different large texts). */
  approximate: boolean;
}

export const MAX_LISTED_PAGES = 200;

/** The sign people read a change by: `+` added, `~` changed, `-` removed. */
export function changeSign(change: PageChange): string {
  return change === 'added' ? '+' : change === 'removed' ? '-' : '~';
}

/** `+12 -3`: the lines of one page's change, or of all of them. */
export function lineCounts(counts: { linesAdded: number; linesRemoved: number }): string {
  return `+${counts.linesAdded} -${counts.linesRemoved}`;
}

/** What was compared with, the same in every format: `change request #4`, or the live content. */
export function baseLabel(against: PreviewBase): string {
  return against.kind === 'change-request'
    ? `change request #${against.number}`
    : 'the live content, for a new change request';
}

/** `2 added, 1 changed, 0 removed, 5 unchanged`. */
export function changeCounts(preview: ContentPreview): string {
  return `${preview.added} added, ${preview.changed} changed, ${preview.removed} removed, ${preview.unchanged} unchanged`;
}

/** One line per page listed (`~ guides/install +3 -1`), then `... and N more` past the list. */
export function pageLines(preview: ContentPreview): string[] {
  return [
    ...preview.pages.map((page) => `${changeSign(page.change)} ${page.path} ${lineCounts(page)}`),
    ...(preview.notListed > 0 ? [`... and ${preview.notListed} more`] : []),
  ];
}
