// Which lines of a markdown document are code: a `# comment` or a `[x](y)` inside a code block is
// neither a heading nor a link. Shared by title detection, link extraction and the summary reader.

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})([^\r]*)/;
const LIST_ITEM = /^( {0,3})([*+-]|\d{1,9}[.)])( +|\t|$)/;
const HEADING = /^ {0,3}#{1,6}([ \t]|\r?$)/;
const TAB_WIDTH = 4;

/**
 * One flag per line, true inside a fenced code block (fence lines included) or an indented code
 * block. This follows CommonMark closely enough for docs: a fence closes with the same character at
 * least as long, an unclosed fence runs to the end, an indented line is code only after a blank line
 * or a heading (it cannot interrupt a paragraph), and inside a list it must be indented four columns
 * past the item's text.
 */
export function codeBlockLines(lines: readonly string[]): boolean[] {
  const code: boolean[] = [];
  let fence: { char: string; length: number } | undefined;
  let paragraphOpen = false;
  let listContentColumn: number | undefined;

  for (const line of lines) {
    if (fence !== undefined) {
      code.push(true);
      if (closesFence(line, fence)) fence = undefined;
      continue;
    }
    const blank = line.trim() === '';
    const indent = indentColumns(line);
    const codeColumn = (listContentColumn ?? 0) + TAB_WIDTH;
    if (!blank && !paragraphOpen && indent >= codeColumn) {
      code.push(true);
      continue;
    }
    const open = FENCE_OPEN.exec(line);
    const marker = open?.[1];
    // A backtick fence's info string cannot contain a backtick (that is inline code instead).
    if (marker !== undefined && !(marker.startsWith('`') && open?.[2]?.includes('`'))) {
      fence = { char: marker.charAt(0), length: marker.length };
      code.push(true);
      paragraphOpen = false;
      continue;
    }
    code.push(false);
    if (blank) {
      paragraphOpen = false;
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      listContentColumn = (item[1]?.length ?? 0) + (item[2]?.length ?? 0) + Math.max(1, item[3]?.length ?? 1);
    } else if (indent < (listContentColumn ?? 0) && !paragraphOpen) {
      // A line back at the margin after a blank line ends the list.
      listContentColumn = undefined;
    }
    paragraphOpen = !HEADING.test(line);
  }
  return code;
}

/**
 * One flag per line, true inside a fenced code block (fence lines included). Indented code is not
 * looked for: in a SUMMARY.md, deep list nesting after a blank line would read as code.
 */
export function fencedCodeLines(lines: readonly string[]): boolean[] {
  let fence: { char: string; length: number } | undefined;
  return lines.map((line) => {
    if (fence !== undefined) {
      if (closesFence(line, fence)) fence = undefined;
      return true;
    }
    const open = FENCE_OPEN.exec(line);
    const marker = open?.[1];
    if (marker === undefined || (marker.startsWith('`') && open?.[2]?.includes('`'))) return false;
    fence = { char: marker.charAt(0), length: marker.length };
    return true;
  });
}

function closesFence(line: string, fence: { char: string; length: number }): boolean {
  const match = /^ {0,3}(`+|~+)[ \t]*\r?$/.exec(line);
  const marker = match?.[1];
  return marker !== undefined && marker.charAt(0) === fence.char && marker.length >= fence.length;
}

/** How many columns of whitespace start `line`, a tab reaching the next multiple of four. */
export function indentColumns(line: string): number {
  let column = 0;
  for (const char of line) {
    if (char === ' ') column += 1;
    else if (char === '\t') column += TAB_WIDTH - (column % TAB_WIDTH);
    else break;
  }
  return column;
}
