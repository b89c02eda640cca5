// When a bundle renames the configured readme (`intro.md`) to README.md, the summary's links to it
// must follow, or the summary would point at a file the bundle no longer has.
import { parseSummary, type SummaryItem } from './parse-summary.js';

const LIST_MARKER = /^[ \t]*(?:[*+-]|\d{1,9}[.)])[ \t]+/;

/**
 * `summary` (a SUMMARY.md at the top of the docs root) with every list link that resolves to `from`
 * pointing at `to` instead; the rest of each line (title, tooltip, indent) is kept. Text that is not
 * a summary list item is left alone. A summary parseSummary refuses throws its ContentError.
 */
export function retargetSummaryLinks(summary: string, from: string, to: string): string {
  const lines = new Set<number>();
  const visit = (items: readonly SummaryItem[]): void => {
    for (const item of items) {
      if (item.path === from) lines.add(item.line);
      visit(item.children);
    }
  };
  visit(parseSummary(summary, 'SUMMARY.md'));
  if (lines.size === 0) return summary;
  return summary
    .split('\n')
    .map((line, index) => (lines.has(index + 1) ? retargetLine(line, to) : line))
    .join('\n');
}

/** The item line with its link target replaced; parseSummary has checked it is `[title](target …)`. */
function retargetLine(line: string, target: string): string {
  const marker = LIST_MARKER.exec(line);
  if (marker === null) return line;
  let at = marker[0].length;
  // The title: brackets may nest one level and be escaped.
  let depth = 0;
  for (; at < line.length; at += 1) {
    const char = line[at];
    if (char === '\\') at += 1;
    else if (char === '[') depth += 1;
    else if (char === ']' && --depth === 0) break;
  }
  at += 1;
  if (line[at] !== '(') return line;
  at += 1;
  while (line[at] === ' ' || line[at] === '\t') at += 1;
  const start = at;
  if (line[at] === '<') {
    at = line.indexOf('>', at) + 1;
  } else {
    // A bare destination: up to whitespace or the `)` that closes the link, parentheses balanced.
    let open = 0;
    for (; at < line.length; at += 1) {
      const char = line[at];
      if (char === '\\') at += 1;
      else if (char === '(') open += 1;
      else if (char === ')' && open-- === 0) break;
      else if (char === ' ' || char === '\t') break;
    }
  }
  return `${line.slice(0, start)}${target}${line.slice(at)}`;
}
