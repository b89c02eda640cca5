// SUMMARY.md as a sequence of what its lines are: headings, thematic breaks and list entries nested
// by indentation (docs/folder-format.md, "SUMMARY.md, line by line"). What an entry's text means is
// for summary-entry.ts; which pages result, for build-page-tree.ts. Fenced code and HTML comments
// are skipped; any other text is read past. One pass over the lines, no backtracking.

export interface SummaryListEntry {
  kind: 'entry';
  /** 1-based line in the summary. */
  line: number;
  /** The item's text after its marker (`[Install](guides/install.md)`), inline comments removed. */
  text: string;
  /** Entries indented further below this one, until one indented as much or less. */
  children: SummaryListEntry[];
}

export type SummaryLine =
  | SummaryListEntry
  /** `# Title` (level 1) or `## Group` (2 to 6), ATX or setext; `title` is '' for `##` alone. */
  | { kind: 'heading'; line: number; level: number; title: string }
  /** `---`, `***`, `___`: ends the group above. */
  | { kind: 'break'; line: number };

const FENCE_OPEN = /^([ \t]*)(`{3,}|~{3,})(.*)$/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(?:=+|-+)[ \t]*$/;
const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*))?$/;
const LIST_ITEM = /^([ \t]*)(?:[*+-]|\d{1,9}[.)])(?:[ \t]+(.*))?$/;
const COMMENT_IN_LINE = /<!--[\s\S]*?-->/g;
/** Entries nested deeper than this become siblings of the deepest: no table of contents goes there. */
const MAX_DEPTH = 64;
/** Characters of a line that are read: an entry is short, and a hostile line of megabytes is not. */
const MAX_LINE = 2000;

/** The top-level lines of the summary; entries hold their nested entries. */
export function summaryLines(text: string): SummaryLine[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n|\r/);
  const result: SummaryLine[] = [];
  const open: { indent: number; entry: SummaryListEntry }[] = [];
  let fence: { char: string; length: number; indent: number } | undefined;
  let inComment = false;
  // Text outside a list since the last blank line: a setext underline makes it a heading.
  let paragraph: { line: number; text: string[] } | undefined;

  for (const [index, whole] of lines.entries()) {
    const line = index + 1;
    let raw = whole.length > MAX_LINE ? whole.slice(0, MAX_LINE) : whole;
    if (fence !== undefined) {
      const closing = raw.trim();
      // A fence opened inside an entry (indented) ends with it: a line indented less is not code.
      const outdented = closing !== '' && columns(/^[ \t]*/.exec(raw)?.[0] ?? '') < fence.indent;
      if (!outdented) {
        if (closing.length >= fence.length && [...closing].every((char) => char === fence?.char)) {
          fence = undefined;
        }
        continue;
      }
      fence = undefined;
    }
    if (inComment) {
      inComment = !raw.includes('-->');
      continue;
    }
    const fenceOpen = FENCE_OPEN.exec(raw);
    const marker = fenceOpen?.[2];
    if (marker !== undefined && !(marker.startsWith('`') && fenceOpen?.[3]?.includes('`'))) {
      fence = { char: marker.charAt(0), length: marker.length, indent: columns(fenceOpen?.[1] ?? '') };
      paragraph = undefined;
      continue;
    }
    raw = raw.replace(COMMENT_IN_LINE, '');
    if (/^[ \t]*<!--/.test(raw)) {
      // A comment opening a line hides the lines up to its end, as any markdown reader hides them.
      inComment = true;
      paragraph = undefined;
      continue;
    }
    if (raw.trim() === '') {
      paragraph = undefined;
      continue;
    }
    if (paragraph !== undefined && SETEXT_UNDERLINE.test(raw)) {
      const level = raw.trim().startsWith('=') ? 1 : 2;
      result.push({
        kind: 'heading',
        line: paragraph.line,
        level,
        title: plainText(paragraph.text.join(' ')),
      });
      open.length = 0;
      paragraph = undefined;
      continue;
    }
    if (THEMATIC_BREAK.test(raw)) {
      result.push({ kind: 'break', line });
      open.length = 0;
      paragraph = undefined;
      continue;
    }
    const heading = ATX_HEADING.exec(raw);
    if (heading !== null) {
      const level = heading[1]?.length ?? 1;
      result.push({ kind: 'heading', line, level, title: plainText(headingText(heading[2] ?? '')) });
      open.length = 0;
      paragraph = undefined;
      continue;
    }
    const item = LIST_ITEM.exec(raw);
    if (item !== null) {
      const indent = columns(item[1] ?? '');
      const entry: SummaryListEntry = { kind: 'entry', line, text: item[2] ?? '', children: [] };
      while (open.length > 0 && (open.at(-1)?.indent ?? -1) >= indent) open.pop();
      while (open.length >= MAX_DEPTH) open.pop();
      const parent = open.at(-1)?.entry;
      if (parent === undefined) result.push(entry);
      else parent.children.push(entry);
      open.push({ indent, entry });
      paragraph = undefined;
      continue;
    }
    // Indented text under an entry continues it; text at the margin ends the list.
    if (open.length > 0 && /^[ \t]/.test(raw)) continue;
    open.length = 0;
    paragraph ??= { line, text: [] };
    paragraph.text.push(raw.trim());
  }
  return result;
}

/** Text as a title: backslash escapes resolved, whitespace runs made one space, trimmed. */
export function plainText(text: string): string {
  return resolveEscapes(text).replace(/\s+/g, ' ').trim();
}

/** CommonMark's backslash escapes of ASCII punctuation. */
export function resolveEscapes(text: string): string {
  return text.replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

/** An ATX heading's text without its closing `#`s (`## Guides ##`); '' for `## ##`. */
function headingText(text: string): string {
  const trimmed = text.trim();
  if (/^#+$/.test(trimmed)) return '';
  return trimmed.replace(/[ \t]+#+$/, '');
}

/** Columns of leading whitespace, a tab reaching the next multiple of four. */
function columns(whitespace: string): number {
  let width = 0;
  for (const char of whitespace) width = char === '\t' ? width + 4 - (width % 4) : width + 1;
  return width;
}
