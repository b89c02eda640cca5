// The summary a bundle holds, so that the service, which reads it with default names and only what
// it lists, sees the pages docsync's outline of the git folder has; and the summary warnings about
// files docsync left out, which say why rather than "not in the folder".
import { appendUnlistedEntries } from './append-unlisted-entries.js';
import type { ContentWarning } from './content-warning.js';
import type { OutlineEntry, UnlistedPages } from './docs-outline.js';
import { DEFAULT_GITBOOK_LAYOUT, type GitbookLayout } from './gitbook-layout.js';
import { parseSummary, type SummaryItem } from './parse-summary.js';
import { retargetSummaryLinks } from './retarget-summary-links.js';

const README = DEFAULT_GITBOOK_LAYOUT.readme;

export interface BundleSummaryOptions {
  layout: GitbookLayout;
  unlisted: UnlistedPages;
  /** A page's name in the bundle, from its path in git. */
  nameOf: (path: string) => string;
}

/**
 * `text` as the bundle holds it. With a configured readme (`INTRODUCTION.md`), the service reads
 * README.md where git has the readme, and reads folder links with README.md alone: each entry that
 * placed a page in `outline` links the page's bundle name; of the entries read past, one naming the
 * readme links README.md, and one naming the git host's README.md (not imported) links the readme's
 * old name, which the bundle never holds, so that the service reads it past too. Under `append`, the
 * unlisted pages of `outline` are added (appendUnlistedEntries). Other lines are kept byte for byte.
 */
export function bundleSummary(
  text: string,
  outline: readonly OutlineEntry[],
  { layout, unlisted, nameOf }: BundleSummaryOptions,
): string {
  let bundled = text;
  if (layout.readme !== README) {
    const placed = new Map(documentLines(outline));
    bundled = retargetSummaryLinks(text, layout.summary, (entry) => {
      if (entry.kind !== 'document' && entry.kind !== 'folder') return undefined;
      const page = placed.get(entry.line);
      if (page !== undefined) return nameOf(page);
      if (entry.kind !== 'document') return undefined;
      return entry.path === layout.readme ? README : entry.path === README ? layout.readme : undefined;
    });
  }
  if (unlisted !== 'append') return bundled;
  return appendUnlistedEntries(bundled, outline, layout.readme, nameOf);
}

/**
 * `warnings` with the message of each SUMMARY_MISSING_FILE about a file that is in git but left out
 * of the import replaced by `why(path)`; the others as they are.
 */
export function explainLeftOutEntries(
  warnings: readonly ContentWarning[],
  text: string,
  summaryPath: string,
  why: (path: string) => string | undefined,
): ContentWarning[] {
  if (!warnings.some((warning) => warning.code === 'SUMMARY_MISSING_FILE')) return [...warnings];
  const linked = new Map(linkedPaths(parseSummary(text, summaryPath)));
  return warnings.map((warning) => {
    if (warning.code !== 'SUMMARY_MISSING_FILE' || warning.file !== summaryPath || warning.line === undefined)
      return warning;
    const path = linked.get(warning.line);
    const message = path === undefined ? undefined : why(path);
    return message === undefined ? warning : { ...warning, message };
  });
}

/** Each summary line that placed a document, with the document's path. */
function documentLines(pages: readonly OutlineEntry[]): Array<[number, string]> {
  return pages.flatMap(
    (page): Array<[number, string]> => [
      ...(page.kind === 'document' && page.line !== undefined
        ? [[page.line, page.path] as [number, string]]
        : []),
      ...(page.kind === 'link' ? [] : documentLines(page.pages)),
    ],
  );
}

/** Each entry line linking a file, with the file's path. */
function linkedPaths(items: readonly SummaryItem[]): Array<[number, string]> {
  return items.flatMap((item): Array<[number, string]> => {
    if (item.kind === 'heading' || item.kind === 'break' || item.kind === 'stray-link') return [];
    return [
      ...(item.kind === 'document' ? [[item.line, item.path] as [number, string]] : []),
      ...linkedPaths(item.children),
    ];
  });
}
