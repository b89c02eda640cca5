// The service's link finder: the links of a page's markdown in one pass over its lines, without a
// syntax tree. Block structure is read only as far as links need it: fenced and indented code and
// HTML blocks hold no markdown links, definitions (`[id]: href`) start a block, and the text of
// paragraphs and headings goes to the inline scanner (inline-links.ts).
import type { FoundLink } from './found-link.js';
import { htmlAt } from './html-tag.js';
import { inlineLinks, normalizedLabel } from './inline-links.js';
import { linkDefinitionAt } from './link-definition.js';

/** The line ending an HTML block that starts on a line of its own, by CommonMark's kinds 1 to 7. */
type HtmlBlockEnd = { until: RegExp } | 'blank';

const RAW_HTML_START = /<(?:script|pre|style|textarea)(?:[ \t\r>]|$)/imy;
const RAW_HTML_END = /<\/(?:script|pre|style|textarea)>/i;
const BLOCK_TAG_START =
  /<\/?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul)(?:[ \t\r>]|\/>|$)/imy;
const ANY_TAG_LINE =
  /(?:<[A-Za-z][A-Za-z0-9-]*(?:[ \t]+[A-Za-z_:][A-Za-z0-9_.:-]*(?:[ \t]*=[ \t]*(?:[^\s"'=<>`]+|'[^'\n]*'|"[^"\n]*"))?)*[ \t]*\/?>|<\/[A-Za-z][A-Za-z0-9-]*[ \t]*>)[ \t\r]*$/my;
const ATX_HEADING = /#{1,6}(?:[ \t\r]|$)/my;
const THEMATIC_BREAK = /(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})\r?$/my;
const SETEXT_UNDERLINE = /(?:=+|-+)[ \t\r]*$/my;
const BULLET = /[-+*](?:[ \t\r]|$)/my;
const ORDERED = /([0-9]{1,9})[.)](?:[ \t\r]|$)/my;
const FENCE = /(`{3,}|~{3,})([^\n]*)$/my;
const BLANK_REST = /[ \t\r]*$/my;

/** Where a line's content starts: `columns` counted from `origin`, the column its container starts at. */
interface Indent {
  at: number;
  columns: number;
  origin: number;
}

interface Line {
  /** Offset of the line's first character and of its end (its `\n`, or the text's end). */
  start: number;
  end: number;
}

/**
 * The links of `markdown` in document order: inline links and images, autolinks, GFM's bare
 * addresses, link definitions (where a reference's address is written; references themselves name
 * no address) and the `href` of `<a>` and `src` of `<img>` in raw HTML. Nothing in code (fenced,
 * indented, code spans) or in HTML comments counts; empty addresses and footnotes are left out.
 */
export function findLinks(markdown: string): FoundLink[] {
  // Most of a page is prose: a page with no character that can start a link has none.
  if (!/[[<@:]|www\./i.test(markdown)) return [];
  const found: FoundLink[] = [];
  new BlockReader(markdown, found).read();
  return found.filter((link) => link.href !== '').sort((a, b) => a.offset - b.offset);
}

class BlockReader {
  /** Content columns of the open list items, innermost last. */
  private lists: number[] = [];
  /** The quotes around each open list item: a line with fewer is outside it (unless lazy). */
  private listQuotes: number[] = [];
  private paragraph: { start: number; end: number; quotes: number } | undefined;
  /** An open code fence; `container` and `quotes` say where it is: it ends with its list item or quote. */
  private fence:
    | { marker: string; length: number; indent: number; container: number; quotes: number }
    | undefined;
  /** An open HTML block; like a fence, it ends with its list item or quote (it takes no lazy line). */
  private html: { start: number; end: HtmlBlockEnd; container: number; quotes: number } | undefined;
  /** Paragraphs and headings, read once every definition is known: a reference may precede it. */
  private readonly inlineRuns: number[] = [];
  private readonly labels = new Set<string>();

  constructor(
    private readonly text: string,
    private readonly found: FoundLink[],
  ) {}

  read(): void {
    let start = 0;
    while (start <= this.text.length) {
      const newline = this.text.indexOf('\n', start);
      const end = newline < 0 ? this.text.length : newline;
      start = this.line({ start, end });
    }
    this.endParagraph();
    if (this.html !== undefined) this.endHtml(this.text.length);
    for (let run = 0; run + 1 < this.inlineRuns.length; run += 2) {
      // Each run on its own list: closing a link looks back over what its own text held.
      const inline: FoundLink[] = [];
      inlineLinks(this.text, this.inlineRuns[run] ?? 0, this.inlineRuns[run + 1] ?? 0, inline, this.labels);
      for (const link of inline) this.found.push(link);
    }
  }

  /** Reads one line; returns where the next line starts (a definition may take several). */
  private line(line: Line): number {
    const next = line.end + 1;
    // Block quote markers: the link finder needs only where the content starts. In a code fence or
    // an HTML block, a `>` past the block's own quotes is its text.
    const maxQuotes = (this.fence ?? this.html)?.quotes ?? Number.POSITIVE_INFINITY;
    let indent = this.indentAt(line.start, line.end);
    let quotes = 0;
    if (this.text.charCodeAt(indent.at) === 0x3e)
      ({ quotes, indent } = this.quoteMarkers(indent, line.end, maxQuotes));
    const blank = indent.at >= line.end || matches(BLANK_REST, this.text, indent.at);

    const inOpenBlock = this.openBlockLine(line, indent, quotes, blank);
    if (inOpenBlock !== undefined) return inOpenBlock;
    if (blank) {
      this.endParagraph();
      return next;
    }
    if (this.paragraph !== undefined && quotes > this.paragraph.quotes) this.endParagraph();

    // The list items this line is inside of; a paragraph's continuation keeps them all.
    let depth = this.lists.length;
    while (
      depth > 0 &&
      (indent.columns < (this.lists[depth - 1] ?? 0) || quotes < (this.listQuotes[depth - 1] ?? 0))
    )
      depth -= 1;
    let base = depth > 0 ? (this.lists[depth - 1] ?? 0) : 0;
    if (indent.columns - base >= 4) {
      if (this.paragraph !== undefined) this.paragraph.end = line.end;
      // Otherwise indented code: no links.
      return next;
    }
    let at = indent.at;
    for (;;) {
      if (this.text.charCodeAt(at) === 0x3e && depth > 0) {
        // A quote opening in a list item's content (`- > text`): its content is read like any.
        const inItem = { at, columns: indent.columns - base, origin: indent.origin + base };
        const inner = this.quoteMarkers(inItem, line.end, Number.POSITIVE_INFINITY);
        quotes += inner.quotes;
        indent = inner.indent;
        base = 0;
        at = indent.at;
        if (at >= line.end || matches(BLANK_REST, this.text, at)) return next;
        // Indented code in the quote: no links.
        if (indent.columns >= 4) return next;
      }
      const block = this.blockStart(at, line, indent.columns, { container: base, quotes });
      if (block === 'list') {
        // A list item's marker: its content may start another block.
        this.lists.length = depth;
        const content = this.listContent(indent, line.end);
        this.lists.push(content.columns);
        this.listQuotes.length = depth;
        this.listQuotes.push(quotes);
        depth = this.lists.length;
        base = content.columns;
        indent = content.rest;
        at = indent.at;
        if (at >= line.end || matches(BLANK_REST, this.text, at)) return next;
        // Five columns or more after the marker: the item starts with indented code, no links.
        if (indent.columns - base >= 4) return next;
        continue;
      }
      if (block === 'text') {
        if (this.paragraph === undefined) {
          this.lists.length = depth;
          // A definition starts a block: it cannot interrupt a paragraph.
          if (this.text.charCodeAt(at) === 0x5b) {
            const definition = linkDefinitionAt(this.text, at);
            if (definition !== undefined && !this.interruptedBefore(line.end, definition.next)) {
              this.found.push({ kind: 'definition', href: definition.href, offset: at });
              this.labels.add(normalizedLabel(definition.label));
              return definition.next;
            }
          }
          this.paragraph = { start: at, end: line.end, quotes };
        } else this.paragraph.end = line.end;
        return next;
      }
      this.lists.length = depth;
      return next;
    }
  }

  /**
   * A line read while a code fence or an HTML block is open: where the next line starts, or
   * undefined when neither is open.
   */
  private openBlockLine(line: Line, indent: Indent, quotes: number, blank: boolean): number | undefined {
    const next = line.end + 1;
    if (this.fence !== undefined) {
      const fence = this.fence;
      const outside = !blank && (indent.columns < fence.container || quotes < fence.quotes);
      if (!outside) {
        if (!blank && indent.columns - fence.indent < 4 && this.closesFence(indent.at, line.end))
          this.fence = undefined;
        return next;
      }
      // The list item or quote holding the fence has ended, and the fence with it: the line is read
      // again, its quote markers no longer the fence's text.
      this.fence = undefined;
      return this.line(line);
    }
    if (this.html !== undefined) {
      const { end, container, quotes: htmlQuotes } = this.html;
      if (!blank && (indent.columns < container || quotes < htmlQuotes)) {
        // The list item or quote holding the block has ended, and the block with it.
        this.endHtml(line.start);
        return this.line(line);
      } else if (end === 'blank') {
        if (blank) this.endHtml(line.start);
        return next;
      } else {
        if (end.until.test(this.text.slice(line.start, line.end))) this.endHtml(line.end);
        return next;
      }
    }
    return undefined;
  }

  /**
   * What starts at `at` (the content of a line, indented less than code): a block this method opens
   * or reads whole (`done`), a list item's marker (`list`), or paragraph text (`text`).
   */
  private blockStart(
    at: number,
    line: Line,
    columns: number,
    where: { container: number; quotes: number },
  ): 'done' | 'list' | 'text' {
    const text = this.text;
    const code = text.charCodeAt(at);
    const inParagraph = this.paragraph !== undefined;
    if (code === 0x60 || code === 0x7e) {
      FENCE.lastIndex = at;
      const fence = FENCE.exec(text);
      // A backtick fence's info string holds no backtick.
      if (fence?.[1] !== undefined && !(code === 0x60 && fence[2]?.includes('`'))) {
        this.endParagraph();
        this.fence = { marker: fence[1][0] ?? '`', length: fence[1].length, indent: columns, ...where };
        return 'done';
      }
    }
    if (code === 0x23 && matches(ATX_HEADING, text, at)) {
      this.endParagraph();
      this.inlineRuns.push(at, line.end);
      return 'done';
    }
    if (inParagraph && (code === 0x3d || code === 0x2d) && matches(SETEXT_UNDERLINE, text, at)) {
      // The paragraph above is a heading: its text was already taken as a paragraph's.
      this.endParagraph();
      return 'done';
    }
    if ((code === 0x2a || code === 0x2d || code === 0x5f) && matches(THEMATIC_BREAK, text, at)) {
      this.endParagraph();
      return 'done';
    }
    if (code === 0x3c) {
      const end = this.htmlBlockEnd(at, inParagraph);
      if (end !== undefined) {
        this.endParagraph();
        this.html = { start: at, end, ...where };
        // Kinds 1 to 5 may end on the line they start.
        if (end !== 'blank' && end.until.test(text.slice(at + 2, line.end))) this.endHtml(line.end);
        return 'done';
      }
    }
    if (this.isListMarker(at, line.end, inParagraph)) {
      this.endParagraph();
      return 'list';
    }
    return 'text';
  }

  private isListMarker(at: number, end: number, inParagraph: boolean): boolean {
    BULLET.lastIndex = at;
    ORDERED.lastIndex = at;
    const bullet = BULLET.test(this.text);
    const ordered = bullet ? null : ORDERED.exec(this.text);
    if (!bullet && ordered === null) return false;
    if (!inParagraph) return true;
    // Interrupting a paragraph: not an empty item, and an ordered list only from 1.
    const marker = bullet ? 1 : (ordered?.[0].trimEnd().length ?? 0);
    if (at + marker >= end || matches(BLANK_REST, this.text, at + marker)) return false;
    return bullet || ordered?.[1] === '1';
  }

  /**
   * The content column of the list item whose marker starts at `indent`, and the first character
   * after the marker (`rest`, its column counted like `indent`'s).
   */
  private listContent(indent: Indent, end: number): { columns: number; rest: Indent } {
    let marker = indent.at;
    while (marker < end && this.text.charCodeAt(marker) >= 0x30 && this.text.charCodeAt(marker) <= 0x39)
      marker += 1;
    marker += 1;
    const markerColumns = indent.columns + (marker - indent.at);
    const rest = this.indentAt(marker, end, markerColumns, indent.origin);
    const spaces = rest.columns - markerColumns;
    // No content, or five columns or more (indented code in the item): the content is one column in.
    const empty = rest.at >= end || matches(BLANK_REST, this.text, rest.at);
    return { columns: empty || spaces > 4 ? markerColumns + 1 : rest.columns, rest };
  }

  /**
   * The block quote markers starting at `indent` (at most `max`), and where their content starts: a
   * tab after a `>` gives one column to the marker, the rest to the content.
   */
  private quoteMarkers(indent: Indent, end: number, max: number): { quotes: number; indent: Indent } {
    let quotes = 0;
    let current = indent;
    while (quotes < max && current.columns < 4 && this.text.charCodeAt(current.at) === 0x3e) {
      quotes += 1;
      const after = current.origin + current.columns + 1;
      const space = this.text.charCodeAt(current.at + 1);
      const origin = space === 0x20 || space === 0x09 ? after + 1 : after;
      const rest = this.indentAt(current.at + 1, end, after - origin, origin);
      current = { at: rest.at, columns: Math.max(0, rest.columns), origin };
    }
    return { quotes, indent: current };
  }

  /**
   * Whether a line after the one ending at `from`, up to `to`, ends a paragraph: a setext heading's
   * underline (`[f]:` then `---` is a heading) or a block that interrupts one (`[f]:` then
   * `<figure>`). A definition spanning it was only a paragraph's text.
   */
  private interruptedBefore(from: number, to: number): boolean {
    for (let start = from + 1; start < to; ) {
      const newline = this.text.indexOf('\n', start);
      const end = newline < 0 ? this.text.length : newline;
      const { at, columns } = this.indentAt(start, end);
      if (columns < 4 && at < end && this.interruptsParagraph(at, end)) return true;
      start = end + 1;
    }
    return false;
  }

  private interruptsParagraph(at: number, end: number): boolean {
    const text = this.text;
    const code = text.charCodeAt(at);
    if (code === 0x3e) return true;
    if ((code === 0x3d || code === 0x2d) && matches(SETEXT_UNDERLINE, text, at)) return true;
    if ((code === 0x2a || code === 0x2d || code === 0x5f) && matches(THEMATIC_BREAK, text, at)) return true;
    if (code === 0x23 && matches(ATX_HEADING, text, at)) return true;
    if ((code === 0x60 || code === 0x7e) && matches(FENCE, text, at)) return true;
    if (code === 0x3c && this.htmlBlockEnd(at, true) !== undefined) return true;
    return this.isListMarker(at, end, true);
  }

  private htmlBlockEnd(at: number, inParagraph: boolean): HtmlBlockEnd | undefined {
    const line = this.text;
    if (matches(RAW_HTML_START, line, at)) return { until: RAW_HTML_END };
    if (line.startsWith('<!--', at)) return { until: /-->/ };
    if (line.startsWith('<?', at)) return { until: /\?>/ };
    if (line.startsWith('<![CDATA[', at)) return { until: /\]\]>/ };
    if (/^<![A-Za-z]/.test(line.slice(at, at + 3))) return { until: />/ };
    if (matches(BLOCK_TAG_START, line, at)) return 'blank';
    // Any other tag alone on its line starts a block, but cannot interrupt a paragraph.
    if (!inParagraph && matches(ANY_TAG_LINE, line, at)) return 'blank';
    return undefined;
  }

  /** The `<a href>` and `<img src>` of an HTML block: nothing else in it is markdown. */
  private endHtml(end: number): void {
    const start = this.html?.start ?? end;
    this.html = undefined;
    for (let at = this.text.indexOf('<', start); at >= 0 && at < end; at = this.text.indexOf('<', at)) {
      const html = htmlAt(this.text, at, end);
      // A comment left open runs to the block's end.
      if (html === undefined && this.text.startsWith('<!--', at)) return;
      if (html?.link !== undefined) this.found.push({ kind: 'html', ...html.link });
      at = html === undefined ? at + 1 : html.end;
    }
  }

  private endParagraph(): void {
    if (this.paragraph === undefined) return;
    this.inlineRuns.push(this.paragraph.start, this.paragraph.end);
    this.paragraph = undefined;
  }

  private closesFence(at: number, end: number): boolean {
    const fence = this.fence;
    if (fence === undefined) return false;
    let p = at;
    while (p < end && this.text[p] === fence.marker) p += 1;
    return p - at >= fence.length && (p >= end || matches(BLANK_REST, this.text, p));
  }

  /** The first non-blank character at or after `at` and its column, a tab to the next multiple of 4. */
  private indentAt(at: number, end: number, startColumns = 0, origin = 0): Indent {
    let columns = startColumns;
    for (; at < end; at += 1) {
      const code = this.text.charCodeAt(at);
      if (code === 0x20) columns += 1;
      // Tab stops are the line's: `origin` is the column that `columns` counts from.
      else if (code === 0x09) columns += 4 - ((origin + columns) % 4);
      else break;
    }
    return { at, columns, origin };
  }
}

/** Whether the sticky `pattern` matches `text` at `at`. */
function matches(pattern: RegExp, text: string, at: number): boolean {
  pattern.lastIndex = at;
  return pattern.test(text);
}
