// Plain-text tables for people: aligned columns two spaces apart, colours only when asked for
// (a terminal), and cell text made safe to print (no control characters from a remote answer).

export type Style = 'bold' | 'dim' | 'green' | 'yellow' | 'red';

/** Wraps text in a style, or returns it as it is. */
export type Paint = (style: Style, text: string) => string;

const ANSI: Readonly<Record<Style, [string, string]>> = {
  bold: ['\u001b[1m', '\u001b[22m'],
  dim: ['\u001b[2m', '\u001b[22m'],
  green: ['\u001b[32m', '\u001b[39m'],
  yellow: ['\u001b[33m', '\u001b[39m'],
  red: ['\u001b[31m', '\u001b[39m'],
};

export function painter(color: boolean): Paint {
  return color ? (style, text) => `${ANSI[style][0]}${text}${ANSI[style][1]}` : (_style, text) => text;
}

export type Cell = string | { text: string; style?: Style | undefined };

export interface Column {
  header: string;
  align?: 'left' | 'right';
}

// C0 and C1 controls (escape sequences included) and runs of white space become one space.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\s]+/g;

/** One line of printable text. */
export function printable(text: string): string {
  return text.replace(UNSAFE, ' ').trim();
}

/** The lines of a table: the header (dim), then one line per row; the last column is not padded. */
export function formatTable(columns: readonly Column[], rows: readonly Cell[][], paint: Paint): string[] {
  const cells = rows.map((row) =>
    columns.map((_, i) => {
      const cell = row[i] ?? '';
      return typeof cell === 'string'
        ? { text: printable(cell), style: undefined }
        : { text: printable(cell.text), style: cell.style };
    }),
  );
  const widths = columns.map((column, i) =>
    Math.max(column.header.length, ...cells.map((row) => row[i]?.text.length ?? 0)),
  );
  const line = (row: readonly { text: string; style?: Style | undefined }[]) =>
    row
      .map((cell, i) => {
        const width = widths[i] ?? 0;
        const last = i === row.length - 1;
        const padded =
          columns[i]?.align === 'right'
            ? cell.text.padStart(width)
            : last
              ? cell.text
              : cell.text.padEnd(width);
        // Padding is measured on the plain text, then the style wraps it, so colours keep columns aligned.
        return cell.style === undefined ? padded : paint(cell.style, padded);
      })
      .join('  ')
      .trimEnd();
  const header = line(columns.map((column) => ({ text: column.header, style: undefined })));
  return [paint('dim', header), ...cells.map(line)];
}
