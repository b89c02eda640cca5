// With `import.unlisted: append`, docsync keeps its old rule for pages SUMMARY.md does not list
// (they follow the listed ones, each under the README of the nearest folder above it), while the
// service reads only what a summary lists. So the bundle's summary lists them too: the original
// lines byte for byte, with one entry added per unlisted page where that rule places it.
import type { OutlineEntry } from './docs-outline.js';
import { formatDestination } from './retarget-summary-links.js';

const LIST_ITEM_START = /^([ \t]*)([*+-]|\d{1,9}[.)])([ \t]+)/;
const TAB_WIDTH = 4;

/**
 * `summary` with an entry for every page of `outline` that has no summary line (the unlisted pages
 * that readOutline placed under `append`), except `readme`, the first page wherever it is listed.
 * A page under a listed one is added after the last line of that page's listed children, indented
 * as its children are; a top-level page at the end, after a `---` when the summary ends in a group
 * (a group holds only what follows its heading up to the next heading or break). An added entry has
 * no title (`* [](guides/setup.md)`), so the page keeps the title of its first heading. `nameOf`
 * gives the page's name in the bundle.
 */
export function appendUnlistedEntries(
  summary: string,
  outline: readonly OutlineEntry[],
  readme: string,
  nameOf: (path: string) => string = (path) => path,
): string {
  const lines = summary.split('\n');
  const eol = summary.includes('\r\n') ? '\r' : '';
  const lineAt = (line: number | undefined) => (line === undefined ? '' : (lines[line - 1] ?? ''));
  const after = new Map<number, string[]>();
  const entryLines = (entry: OutlineEntry, indent: string, bullet: string): string[] => {
    if (entry.kind !== 'document') return [];
    return [
      `${indent}${bullet} [](${formatDestination(nameOf(entry.path))})${eol}`,
      ...entry.pages.flatMap((child) => entryLines(child, `${indent}  `, bullet)),
    ];
  };
  // Post-order: a child's additions come before its parent's when both follow the same line.
  const visit = (entry: OutlineEntry): void => {
    if (entry.kind === 'link') return;
    for (const child of entry.pages) visit(child);
    const unlisted = entry.pages.filter((child) => child.line === undefined);
    if (entry.line === undefined || unlisted.length === 0) return;
    // Added children look like the listed ones: their indent and bullet, else the parent's.
    const sibling = lineAt(entry.pages.find((child) => child.line !== undefined)?.line);
    const parent = lineAt(entry.line);
    const indent = entry.kind === 'group' ? '' : (itemIndent(sibling) ?? childIndent(parent));
    const bullet = bulletOf(sibling) ?? bulletOf(parent) ?? '*';
    const last = lastLine(entry);
    after.set(last, [
      ...(after.get(last) ?? []),
      ...unlisted.flatMap((child) => entryLines(child, indent, bullet)),
    ]);
  };
  for (const entry of outline) visit(entry);

  const topLevel = outline.filter(
    (entry) => entry.line === undefined && !(entry.kind === 'document' && entry.path === readme),
  );
  if (after.size === 0 && topLevel.length === 0) return summary;

  const out: string[] = [];
  for (const [index, line] of lines.entries()) out.push(line, ...(after.get(index + 1) ?? []));
  if (topLevel.length === 0) return out.join('\n');

  // A summary ending in a newline splits into an empty last element: the new lines go before it.
  if (out.at(-1) === '') out.pop();
  else out[out.length - 1] = `${out.at(-1) ?? ''}${eol}`;
  const listed = outline.filter((entry) => entry.line !== undefined);
  if (listed.at(-1)?.kind === 'group') out.push(eol, `---${eol}`, eol);
  const lastTop = [...listed].reverse().find((entry) => entry.kind !== 'group');
  const bullet = bulletOf(lineAt(lastTop?.line)) ?? '*';
  out.push(...topLevel.flatMap((entry) => entryLines(entry, '', bullet)));
  return `${out.join('\n')}\n`;
}

/** The last summary line of `entry` and its listed descendants. */
function lastLine(entry: OutlineEntry): number {
  const own = entry.line ?? 0;
  if (entry.kind === 'link') return own;
  return Math.max(own, ...entry.pages.map(lastLine));
}

/** The indent of the list item on `line`, or undefined when it is not one. */
function itemIndent(line: string): string | undefined {
  return LIST_ITEM_START.exec(line)?.[1];
}

/** The bullet of the list item on `line` (`*`, `-`, `+`), or undefined for another line or a number. */
function bulletOf(line: string): string | undefined {
  const marker = LIST_ITEM_START.exec(line)?.[2];
  return marker === '*' || marker === '-' || marker === '+' ? marker : undefined;
}

/** The indent that makes a list item a child of the item on `line`: its content's column. */
function childIndent(line: string): string {
  const match = LIST_ITEM_START.exec(line);
  if (match === null) return '  ';
  let column = 0;
  for (const char of match[0]) column += char === '\t' ? TAB_WIDTH - (column % TAB_WIDTH) : 1;
  return ' '.repeat(column);
}
