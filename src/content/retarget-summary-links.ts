// When a bundle gives a file another name than it has in git (the configured readme `intro.md`
// becomes README.md), the summary's links to it must follow, or the summary would point at a file
// the bundle no longer has. Entries are read as the service reads them (parseSummary): only the
// destination of the entry's link changes, the rest of the line is kept byte for byte.
import { parseSummary, type SummaryEntry, type SummaryItem } from './parse-summary.js';

/**
 * `summary` (at `summaryPath` from the docs root) with the link of each entry for which `targetOf`
 * gives a path (from the docs root) pointing at that path instead. Entries without a link, links to
 * addresses, headings and other text are left alone; so is a link that already names the path.
 */
export function retargetSummaryLinks(
  summary: string,
  summaryPath: string,
  targetOf: (entry: SummaryEntry) => string | undefined,
): string {
  const lines = summary.split('\n');
  let changed = false;
  const visit = (items: readonly SummaryItem[]): void => {
    for (const item of items) {
      if (item.kind === 'heading' || item.kind === 'break' || item.kind === 'stray-link') continue;
      visit(item.children);
      if (item.kind === 'link' || item.link === undefined) continue;
      const target = targetOf(item);
      if (
        target === undefined ||
        ((item.kind === 'document' || item.kind === 'folder') && item.path === target)
      )
        continue;
      const line = lines[item.line - 1] ?? '';
      const { start, end } = item.link.destination;
      lines[item.line - 1] = `${line.slice(0, start)}${formatDestination(target)}${line.slice(end)}`;
      changed = true;
    }
  };
  visit(parseSummary(summary, summaryPath));
  return changed ? lines.join('\n') : summary;
}

/**
 * A path as a link destination of a summary at the top of the docs root that reads back as the same
 * path: characters a destination cannot hold as they are (spaces, brackets, `%`, `#`, `?`, quotes)
 * percent-encoded, the rest as written.
 */
export function formatDestination(path: string): string {
  return path.replace(/[\s()<>[\]\\%#?"'`]/gu, (char) =>
    [...Buffer.from(char, 'utf8')]
      .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
      .join(''),
  );
}
