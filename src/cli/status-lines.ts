// The lines `docsync status` shares between its tables (src/cli/render-status-tables.ts): the
// headline (what needs attention) with each item and its hint, health cells, notes under a table,
// reasons cut to a terminal row, and timestamps. Pure.
import { attentionOf } from '../status/attention.js';
import type { MappingStatusAnswer, StatusAnswer } from '../status/status-answer-schema.js';
import { type Cell, type Paint, printable, type Style } from './text-table.js';

/** What a cell with nothing to show holds. */
export const NONE = '-';
const REASON_CHARS = 200;

/** The headline: all in sync, or what needs attention, each on its line with what to check under it. */
export function healthLines(status: StatusAnswer, paint: Paint, now: Date): string[] {
  const attention = attentionOf(status, now);
  if (attention === undefined) return [];
  if (attention.items.length === 0) return [paint('green', attention.headline)];
  return [
    paint('bold', paint('red', reason(attention.headline))),
    ...attention.items.flatMap((item) => [
      note(paint, item.style === 'bad' ? 'red' : 'yellow', item.text),
      ...hintNote(paint, item.hint),
    ]),
  ];
}

/** What to check, under a reason; nothing without a hint. */
export function hintNote(paint: Paint, hint: string | undefined): string[] {
  return hint === undefined ? [] : [`    ${paint('dim', reason(`hint: ${hint}`))}`];
}

/** The colour of each health state. */
const STATE_STYLE: Readonly<Record<string, Style>> = {
  ok: 'green',
  degraded: 'yellow',
  failing: 'red',
  paused: 'yellow',
};

/** A health state, and the job failing most in a row behind it. */
export function healthCell(row: Pick<MappingStatusAnswer, 'state' | 'failures'>): Cell {
  const state = row.state ?? 'unknown';
  const [worst] = row.failures;
  return {
    text: worst === undefined ? state : `${state} (${worst.job} ×${worst.count})`,
    style: STATE_STYLE[state],
  };
}

/** An indented line under a table, on one line and cut to a terminal row's length. */
export function note(paint: Paint, style: Style, text: string): string {
  return `  ${paint(style, reason(text))}`;
}

/** A reason on one line, cut to a length a terminal row can hold. */
export function reason(text: string): string {
  const line = printable(text);
  return line.length > REASON_CHARS ? `${line.slice(0, REASON_CHARS - 1)}…` : line;
}

/** `2026-11-21 19:08:58Z`: an ISO time without its milliseconds. */
export function timestamp(iso: string): string {
  return printable(iso)
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z');
}
