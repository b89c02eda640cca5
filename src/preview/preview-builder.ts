// Gathers a dry run's page changes one at a time into a ContentPreview, in bounded memory: the
// counts cover every page, and only the first `maxListed` changes by path are kept (the list is cut
// back whenever it holds twice that many), so a space of 100,000 changed pages lists 200. Pure.
import {
  type ContentPreview,
  MAX_LISTED_PAGES,
  type PageChange,
  type PreviewBase,
  type PreviewPage,
} from './content-preview.js';
import type { LineChanges } from './count-line-changes.js';

export class PreviewBuilder {
  private readonly counts = { added: 0, changed: 0, removed: 0, unchanged: 0 };
  private linesAdded = 0;
  private linesRemoved = 0;
  private approximate = false;
  private listed: PreviewPage[] = [];

  constructor(
    private readonly against: PreviewBase,
    private readonly maxListed = MAX_LISTED_PAGES,
  ) {}

  /** A page the bundle and the base both hold: changed when its markdown's lines differ. */
  compared(path: string, lines: LineChanges): void {
    if (lines.exact && lines.added === 0 && lines.removed === 0) {
      // Equal lines, whatever the line endings or a final line break: nothing a reader would see.
      this.counts.unchanged += 1;
      return;
    }
    if (!lines.exact) this.approximate = true;
    this.record({ path, change: 'changed', linesAdded: lines.added, linesRemoved: lines.removed });
  }

  /** A page only the bundle holds, of `lines` lines. */
  added(path: string, lines: number): void {
    this.record({ path, change: 'added', linesAdded: lines, linesRemoved: 0 });
  }

  /** A page only the base holds, of `lines` lines. */
  removed(path: string, lines: number): void {
    this.record({ path, change: 'removed', linesAdded: 0, linesRemoved: lines });
  }

  /** A page the bundle and the base hold with the same markdown, known without reading it. */
  same(): void {
    this.counts.unchanged += 1;
  }

  finish(): ContentPreview {
    this.trim();
    const total = this.counts.added + this.counts.changed + this.counts.removed;
    return {
      against: this.against,
      ...this.counts,
      linesAdded: this.linesAdded,
      linesRemoved: this.linesRemoved,
      pages: this.listed,
      notListed: total - this.listed.length,
      approximate: this.approximate,
    };
  }

  private record(page: PreviewPage & { change: PageChange }): void {
    this.counts[page.change] += 1;
    this.linesAdded += page.linesAdded;
    this.linesRemoved += page.linesRemoved;
    this.listed.push(page);
    if (this.listed.length >= 2 * this.maxListed) this.trim();
  }

  private trim(): void {
    this.listed.sort((a, b) => byPath(a.path, b.path) || byPath(a.change, b.change));
    if (this.listed.length > this.maxListed) this.listed = this.listed.slice(0, this.maxListed);
  }
}

/** By UTF-16 code units: the same pages give the same list whatever the locale. */
function byPath(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
