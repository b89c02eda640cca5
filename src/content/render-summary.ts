// Writes a whole SUMMARY.md for a space's structure, in a given style: when git has none and the
// folder needs one, or when a summary's changes cannot be made line by line. Documents and links
// are list links, placeholders list items without a link, groups `## Title` headings holding the
// items below them; top-level items after a group follow a `---` line, which ends the group.
//
//     # Summary
//
//     * [Welcome](README.md)
//
//     ## Guides
//
//     * [Install](guides/install.md)
//       * [On Linux](guides/linux.md)
//     * Reference
//     * [Status](https://status.example.com)

import {
  addressHref,
  DEFAULT_SUMMARY_STYLE,
  escapeHeading,
  escapeTitle,
  pageHref,
  type SummaryStyle,
} from './summary-style.js';
import type { TocEntry } from './toc-entry.js';

export const DEFAULT_SUMMARY_HEAD: readonly string[] = ['# Summary', ''];

/** One list line of `entry` (its children aside), `indent` and `marker` before it. */
export function itemLine(
  entry: Exclude<TocEntry, { kind: 'group' }>,
  summaryPath: string,
  style: SummaryStyle,
  indent: string,
  marker = `${style.bullet} `,
): string {
  const title = escapeTitle(entry.title);
  if (entry.kind === 'placeholder') return `${indent}${marker}${title}`;
  const href = entry.kind === 'link' ? addressHref(entry.href) : pageHref(entry.path, summaryPath, style);
  return `${indent}${marker}[${title}](${href})`;
}

export function headingLine(title: string, style: SummaryStyle): string {
  return `${style.groupHeading} ${escapeHeading(title)}`;
}

/**
 * The summary for `entries`: `head` (the title and what precedes the list: by default `# Summary`
 * and a blank line) kept as given, then the list, each line ending in `style.eol`.
 */
export function renderSummary(
  entries: readonly TocEntry[],
  summaryPath: string,
  style: SummaryStyle = DEFAULT_SUMMARY_STYLE,
  head: readonly string[] = DEFAULT_SUMMARY_HEAD,
): string {
  const lines = [...head];
  const blankLine = () => {
    if (lines.length > 0 && lines.at(-1)?.trim() !== '') lines.push('');
  };
  const write = (items: readonly TocEntry[], depth: number): void => {
    for (const item of items) {
      if (item.kind === 'group') continue; // groups are top level only; writeTop handles them
      lines.push(itemLine(item, summaryPath, style, style.indent.repeat(depth)));
      if (item.kind !== 'link') write(item.pages, depth + 1);
    }
  };
  let inGroup = false;
  for (const item of entries) {
    if (item.kind === 'group') {
      blankLine();
      lines.push(headingLine(item.title, style), '');
      write(item.pages, 0);
      inGroup = true;
      continue;
    }
    if (inGroup) {
      blankLine();
      lines.push('---', '');
      inGroup = false;
    }
    write([item], 0);
  }
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  return `${lines.join(style.eol)}${style.eol}`;
}
