// Edits git's SUMMARY.md to give the space's structure, changing as few lines as it can: the lines
// of entries that stay where they are are kept byte for byte, an entry whose title or link changed
// has just that part of its line rewritten, removed entries lose their lines, and new entries get
// lines in the file's own style (bullet, indent, link form, line ends) right after the entry before
// them. Every other line (the title, blank lines, text, lines the reader warned about) stays as it is.
//
// Which entry keeps which line is matchEntries's answer. Pure: the caller reads the result back and
// falls back to a whole new summary (renderSummary) in the rare case the edit does not give the
// space's structure.
import type { OutlineEntry } from './docs-outline.js';
import { type Item, matchEntries } from './match-entries.js';
import { headingLine, itemLine } from './render-summary.js';
import {
  addressHref,
  columns,
  escapeHeading,
  escapeTitle,
  GROUP_HEADING,
  LIST_ITEM,
  pageHref,
  type SummaryStyle,
} from './summary-style.js';
import { sameHead, sameStructure, type TocEntry, titleGiven } from './toc-entry.js';

export interface SummaryRewrite {
  /** Git's summary as it is. */
  text: string;
  /** What readOutline gives for it: git's structure, with each entry's line. */
  current: readonly OutlineEntry[];
  /** The space's structure, paths as in git. */
  space: readonly TocEntry[];
  /** The title a page gives itself (first heading, else file name), by path. */
  implied: (path: string) => string | undefined;
  summaryPath: string;
  style: SummaryStyle;
}

/** The indent and marker of a space entry's line, which its new siblings and children copy. */
interface Shape {
  indent: string;
  marker: string;
}

type Line = { text: string; added: boolean };

/** `rewrite.text` edited to give `rewrite.space`; the text itself when the structure is the same. */
export function rewriteSummary(rewrite: SummaryRewrite): string {
  const { text, current, space, implied, summaryPath, style } = rewrite;
  if (sameStructure(space, current, implied)) return text;
  const lines = text.split('\n');
  const { git, mine, partner } = matchEntries(current, space);
  const kept = new Set(partner.values());

  // Git's lines: kept as they are, rewritten in part, or dropped.
  const replaced = new Map<number, string>();
  const dropped = new Set<number>();
  const entryLines = new Set(git.map((item) => item.entry.line));
  git.forEach((item, index) => {
    const line = item.entry.line;
    if (line === undefined || kept.has(index)) return;
    dropped.add(line);
    // Lines read past below a removed entry (a duplicate, a missing file) go with it.
    const indent = LIST_ITEM.exec((lines[line - 1] ?? '').replace(/\r$/, ''))?.[1];
    for (let below = line + 1; indent !== undefined && below < lines.length; below += 1) {
      const nested = LIST_ITEM.exec((lines[below - 1] ?? '').replace(/\r$/, ''));
      if (nested === null || columns(nested[1] ?? '') <= columns(indent)) break;
      if (!entryLines.has(below)) dropped.add(below);
    }
    // A group heading goes with one of the blank lines around it.
    const before = lines[line - 2] ?? '';
    const after = line < lines.length - 1 ? lines[line] : undefined;
    if (item.entry.kind === 'group' && isBlank(before) && after !== undefined && isBlank(after))
      dropped.add(line + 1);
  });
  const firstEntryLine = git.reduce(
    (first, item) => Math.min(first, item.entry.line ?? Number.POSITIVE_INFINITY),
    lines.length + 1,
  );

  // The space's entries in reading order: each after the one before it.
  const inserted = new Map<number, string[]>();
  const placed: Shape[] = [];
  let previousAnchor = 0;
  mine.forEach((item, index) => {
    const g = partner.get(index);
    const gitItem = g === undefined ? undefined : git[g];
    const line = gitItem?.entry.line;
    const raw = line === undefined ? undefined : (lines[line - 1] ?? '');
    const parsed = raw === undefined ? undefined : LIST_ITEM.exec(raw.replace(/\r$/, ''));
    const shape = shapeFor(item, index, mine, placed, parsed, style);
    if (gitItem !== undefined && line !== undefined && raw !== undefined) {
      const edited = editedLine(raw, gitItem.entry, item.entry, rewrite, shape);
      if (edited !== raw) replaced.set(line, edited);
      previousAnchor = afterBlankLines(line, gitItem.entry, lines);
      placed[index] = shape;
      return;
    }
    placed[index] = shape;
    // Matched an entry the summary does not list (the readme, an appended page): nothing to write.
    if (gitItem !== undefined) return;
    const block = newLines(item.entry, summaryPath, style, shape);
    const slot = inserted.get(previousAnchor) ?? [];
    slot.push(...block.map((added) => `${added}${style.eol === '\r\n' ? '\r' : ''}`));
    inserted.set(previousAnchor, slot);
  });

  const out: Line[] = [];
  const addAll = (texts: readonly string[] | undefined) => {
    for (const added of texts ?? []) out.push({ text: added, added: true });
  };
  const start = inserted.get(0) ?? [];
  const hasEntryLine = firstEntryLine <= lines.length;
  lines.forEach((raw, index) => {
    const number = index + 1;
    if (hasEntryLine && number === firstEntryLine) addAll(start);
    if (!dropped.has(number)) out.push({ text: replaced.get(number) ?? raw, added: false });
    addAll(inserted.get(number));
  });
  if (!hasEntryLine && start.length > 0) {
    // No entry in the file yet: the list goes at its end, after a blank line.
    const cr = style.eol === '\r\n' ? '\r' : '';
    const last = out.pop();
    if (last !== undefined && last.text !== '') out.push({ text: `${last.text}${cr}`, added: false });
    out.push({ text: cr, added: true });
    addAll(start);
    out.push({ text: '', added: false });
  }
  return tidy(out, trailingBlankLines(lines))
    .map((line) => line.text)
    .join('\n');
}

/** The indent and marker of a space entry: its own line's, else its previous sibling's, else one level below its parent. */
function shapeFor(
  item: Item<TocEntry>,
  index: number,
  mine: readonly Item<TocEntry>[],
  placed: readonly Shape[],
  parsed: RegExpExecArray | null | undefined,
  style: SummaryStyle,
): { indent: string; marker: string } {
  if (parsed !== null && parsed !== undefined) {
    const [, indent = '', marker = '*', space = ' '] = parsed;
    return { indent, marker: `${marker}${space}` };
  }
  for (let before = index - 1; before >= 0 && before > item.parent; before -= 1) {
    const sibling = mine[before];
    const shape = placed[before];
    if (sibling?.parent === item.parent && sibling.level === item.level && shape !== undefined)
      return { indent: shape.indent, marker: shape.marker };
  }
  const parent = mine[item.parent];
  const parentShape = placed[item.parent];
  if (parent !== undefined && parent.level >= 0 && parentShape !== undefined)
    return { indent: `${parentShape.indent}${style.indent}`, marker: `${style.bullet} ` };
  return { indent: style.indent.repeat(Math.max(item.level, 0)), marker: `${style.bullet} ` };
}

/** Git's line for an entry the space keeps at this place, with its title or link changed if they did. */
function editedLine(
  raw: string,
  before: OutlineEntry,
  after: TocEntry,
  rewrite: SummaryRewrite,
  shape: { indent: string; marker: string },
): string {
  const eol = raw.endsWith('\r') ? '\r' : '';
  const line = raw.replace(/\r$/, '');
  if (sameHead(after, before, rewrite.implied)) return raw;
  if (after.kind === 'group') {
    const marker = GROUP_HEADING.exec(line)?.[1] ?? rewrite.style.groupHeading;
    return `${marker} ${escapeHeading(after.title)}${eol}`;
  }
  const item = LIST_ITEM.exec(line);
  if (after.kind === 'placeholder' || item === null) {
    return `${itemLine(after, rewrite.summaryPath, rewrite.style, shape.indent, shape.marker)}${eol}`;
  }
  const spans = linkSpans(line, line.length - (item[4] ?? '').length);
  if (spans === undefined)
    return `${itemLine(after, rewrite.summaryPath, rewrite.style, shape.indent, shape.marker)}${eol}`;
  const sameTarget =
    (after.kind === 'document' && before.kind === 'document' && after.path === before.path) ||
    (after.kind === 'link' && before.kind === 'link' && after.href === before.href);
  const href =
    after.kind === 'link'
      ? addressHref(after.href)
      : pageHref(after.path, rewrite.summaryPath, rewrite.style);
  const beforeTitle =
    before.kind === 'document'
      ? titleGiven(before.title, rewrite.implied(before.path))
      : before.kind === 'link'
        ? before.title || before.href
        : before.title;
  const title =
    after.title === beforeTitle ? line.slice(spans.textStart, spans.textEnd) : escapeTitle(after.title);
  return `${line.slice(0, spans.textStart)}${title}${line.slice(spans.textEnd, spans.destinationStart)}${
    sameTarget ? line.slice(spans.destinationStart, spans.destinationEnd) : href
  }${line.slice(spans.destinationEnd)}${eol}`;
}

/** The lines a new entry of the space is written as: a group's heading between blank lines, or one list line. */
function newLines(
  entry: TocEntry,
  summaryPath: string,
  style: SummaryStyle,
  shape: { indent: string; marker: string },
): string[] {
  if (entry.kind === 'group') return ['', headingLine(entry.title, style), ''];
  return [itemLine(entry, summaryPath, style, shape.indent, shape.marker)];
}

/** A group heading's entries start after the blank lines below it: new first pages go there too. */
function afterBlankLines(line: number, entry: OutlineEntry, lines: readonly string[]): number {
  if (entry.kind !== 'group') return line;
  let after = line;
  while (after < lines.length - 1 && (lines[after] ?? '').trim() === '') after += 1;
  return after;
}

/** Where the first link of a list line's text and destination are: `[text](destination ...)`. */
function linkSpans(
  line: string,
  from: number,
): { textStart: number; textEnd: number; destinationStart: number; destinationEnd: number } | undefined {
  for (let open = line.indexOf('[', from); open !== -1; open = line.indexOf('[', open + 1)) {
    if (isEscaped(line, open)) continue;
    let depth = 0;
    let at = open;
    for (; at < line.length; at += 1) {
      const char = line[at];
      if (char === '\\') at += 1;
      else if (char === '[') depth += 1;
      else if (char === ']' && --depth === 0) break;
    }
    if (line[at + 1] !== '(') continue;
    let start = at + 2;
    while (line[start] === ' ' || line[start] === '\t') start += 1;
    let end = start;
    if (line[end] === '<') {
      end = line.indexOf('>', end);
      if (end === -1) return undefined;
      end += 1;
    } else {
      let parens = 0;
      for (; end < line.length; end += 1) {
        const char = line[end];
        if (char === '\\') end += 1;
        else if (char === '(') parens += 1;
        else if (char === ')' && parens-- === 0) break;
        else if (char === ' ' || char === '\t') break;
      }
    }
    return { textStart: open + 1, textEnd: at, destinationStart: start, destinationEnd: end };
  }
  return undefined;
}

function isEscaped(line: string, at: number): boolean {
  let backslashes = 0;
  for (let before = at - 1; before >= 0 && line[before] === '\\'; before -= 1) backslashes += 1;
  return backslashes % 2 === 1;
}

/** Blank lines at the end of a file split in lines, the piece after the last line end aside. */
function trailingBlankLines(lines: readonly string[]): number {
  let count = 0;
  for (let at = lines.length - 2; at >= 0 && isBlank(lines[at] ?? ''); at -= 1) count += 1;
  return count;
}

/**
 * Added blank lines next to another blank line, or at the very start, are not needed; nor more
 * blank lines at the end than the file had (when its last entries were removed).
 */
function tidy(lines: readonly Line[], trailing: number): Line[] {
  const out: Line[] = [];
  lines.forEach((line, index) => {
    if (line.added && isBlank(line.text)) {
      const before = out.at(-1);
      const after = lines[index + 1];
      if (before === undefined || isBlank(before.text)) return;
      if (after !== undefined && isBlank(after.text) && !after.added) return;
    }
    out.push(line);
  });
  const last = out.pop();
  while (trailingBlankLines([...out.map((line) => line.text), '']) > trailing) out.pop();
  if (last !== undefined) out.push(last);
  return out;
}

function isBlank(line: string): boolean {
  return line.trim() === '';
}
