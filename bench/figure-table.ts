// The one table of `npm run bench`: every benchmark that ran registers its headline figures here
// (figure), and the runner prints them together at the end (figureTable), so that a run of all
// benchmarks, or of a few named ones, ends with figure, docsync, baseline, ratio, target and met.

export interface Figure {
  /** What is measured, with its size and unit: `no-op jobs/s, 5000 jobs, 2x8`. */
  name: string;
  /** docsync's figure, as printed (a number, or text such as `p99 812 ms`). */
  docsync: number | string;
  /** The baseline measured in the same run, when the figure has one. */
  baseline?: number | string;
  /** docsync over the baseline (or the target's own ratio), when the figure has one. */
  ratio?: number;
  /** The target, as the issue states it: `>= 0.95`, `<= 800 ms`. */
  target?: string;
  /** Whether the target was met; undefined when the figure has no target. */
  met?: boolean;
}

const COLUMNS = ['figure', 'docsync', 'baseline', 'ratio', 'target', 'met'] as const;

const figures: Figure[] = [];

/** Registers one row of the final table. */
export function figure(row: Figure): void {
  figures.push(row);
}

/** The rows registered so far, in the order the benchmarks registered them. */
export function registeredFigures(): readonly Figure[] {
  return figures;
}

/** The table of `rows` as fixed-width text, one line per row under a header; empty without rows. */
export function figureTable(rows: readonly Figure[] = figures): string {
  if (rows.length === 0) return '';
  const cells = rows.map((row) => [
    row.name,
    show(row.docsync),
    row.baseline === undefined ? '-' : show(row.baseline),
    row.ratio === undefined ? '-' : show(row.ratio),
    row.target ?? '-',
    row.met === undefined ? '-' : row.met ? 'yes' : 'no',
  ]);
  const widths = COLUMNS.map((column, index) =>
    Math.max(column.length, ...cells.map((line) => (line[index] ?? '').length)),
  );
  const line = (values: readonly string[]) =>
    values
      .map((value, index) => value.padEnd(widths[index] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(COLUMNS), line(widths.map((width) => '-'.repeat(width))), ...cells.map(line)]
    .map((text) => `${text}\n`)
    .join('');
}

/** Numbers as the reports print them: at most two decimals. */
function show(value: number | string): string {
  return typeof value === 'number' ? String(Number(value.toFixed(2))) : value;
}
