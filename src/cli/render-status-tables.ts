// `docsync status` for people: the /status answer as plain-text tables (mappings, their last
// imports' warnings, change requests with their verdicts, link checks, OpenAPI specs, queues, next
// runs, recent events and failures). Pure: the answer, the clock and whether to colour come in, the
// text goes out.
import { formatDuration, relativeTime } from '../status/format-time.js';
import { schedulerName, scheduleText } from '../status/schedule-text.js';
import { shownWarnings, warningWhere } from '../status/shown-warnings.js';
import type {
  MappingStatusAnswer,
  PartErrorAnswer,
  SpecStatusAnswer,
  StatusAnswer,
} from '../status/status-answer-schema.js';
import { type Cell, formatTable, type Paint, painter, printable, type Style } from './text-table.js';

export interface RenderOptions {
  now: Date;
  color: boolean;
}

/** Rows shown of the long lists; `--json` has them all. */
export const SHOWN_NEXT_RUNS = 20;
export const SHOWN_FAILURES = 20;
export const SHOWN_EVENTS = 10;
/** Import warnings listed per mapping: one noisy folder does not hide another's. */
export const SHOWN_WARNINGS = 10;
const REASON_CHARS = 200;
const NONE = '-';

export function renderStatusTables(status: StatusAnswer, options: RenderOptions): string {
  const paint = painter(options.color);
  const at = (iso: string) => relativeTime(iso, options.now);
  const sections: string[][] = [
    [
      `${paint('bold', `docsync ${printable(status.version)}`)}, up ${formatDuration(status.uptimeSeconds * 1000)} (since ${timestamp(status.startedAt)})`,
    ],
    ...mappingSections(status.mappings, paint, at),
    specSection(status.openapi, paint, at),
    queueSection(status.queues, paint),
    nextRunSection(status.nextRuns, paint, at),
    eventSection(status.events, paint, at),
    failureSection(status.failures, paint, at),
  ];
  return `${sections.map((lines) => lines.join('\n')).join('\n\n')}\n`;
}

type At = (iso: string) => string;

function isPartError(part: unknown): part is PartErrorAnswer {
  return typeof part === 'object' && part !== null && !Array.isArray(part) && 'error' in part;
}

function unavailable(title: string, part: PartErrorAnswer, paint: Paint): string[] {
  return [`${paint('bold', title)}: ${paint('red', `unavailable (${printable(part.error)})`)}`];
}

function mappingSections(part: StatusAnswer['mappings'], paint: Paint, at: At): string[][] {
  if (isPartError(part)) return [unavailable('Mappings', part, paint)];
  if (part.length === 0) return [[`${paint('bold', 'Mappings')}: none configured`]];
  const rows = part.map((mapping): Cell[] => {
    const last = mapping.lastImport;
    return [
      mapping.name,
      mapping.direction,
      stateCell(mapping),
      last?.result ?? NONE,
      last?.sha === undefined ? NONE : last.sha.slice(0, 12),
      last?.changeRequest === undefined ? NONE : `#${last.changeRequest.number}`,
      last === undefined ? NONE : at(last.at),
      last === undefined
        ? NONE
        : { text: String(last.warningCount), style: last.warningCount > 0 ? 'yellow' : undefined },
      mapping.lastMerge === undefined
        ? NONE
        : `#${mapping.lastMerge.changeRequest.number} ${at(mapping.lastMerge.at)}`,
      mapping.lastExport === undefined
        ? NONE
        : {
            text: `${mapping.lastExport.result} ${at(mapping.lastExport.at)}`,
            style: mapping.lastExport.result === 'conflict' ? 'yellow' : undefined,
          },
    ];
  });
  const mappings = [
    paint('bold', 'Mappings'),
    ...formatTable(
      [
        { header: 'NAME' },
        { header: 'DIRECTION' },
        { header: 'STATE' },
        { header: 'LAST IMPORT' },
        { header: 'COMMIT' },
        { header: 'CR' },
        { header: 'WHEN' },
        { header: 'WARNINGS', align: 'right' },
        { header: 'LAST MERGE' },
        { header: 'LAST EXPORT' },
      ],
      rows,
      paint,
    ),
    ...part.flatMap((mapping) => mappingNotes(mapping, paint, at)),
  ];
  return [
    mappings,
    importWarningSection(part, paint),
    changeRequestSection(part, paint, at),
    linkCheckSection(part, paint, at),
  ];
}

/** What each mapping's last import read past in its folder, where, and what to do about it. */
function importWarningSection(mappings: readonly MappingStatusAnswer[], paint: Paint): string[] {
  const withWarnings = mappings.flatMap((mapping) => {
    const last = mapping.lastImport;
    return last === undefined || last.warningCount === 0
      ? []
      : [{ name: mapping.name, ...shownWarnings(last.warnings, last.warningCount, SHOWN_WARNINGS) }];
  });
  if (withWarnings.length === 0) return [`${paint('bold', 'Import warnings')}: none`];
  return [
    paint('bold', 'Import warnings'),
    ...formatTable(
      [{ header: 'MAPPING' }, { header: 'WHERE' }, { header: 'WARNING' }],
      withWarnings.flatMap(({ name, shown }) =>
        shown.map((warning): Cell[] => [name, warningWhere(warning), reason(warning.message)]),
      ),
      paint,
    ),
    ...withWarnings.flatMap(({ name, shown, hidden, listed, count }) => {
      if (hidden === 0) return [];
      // Past the state's limit the rest are counted, not kept: --json has no more to show then.
      const where =
        listed <= shown.length
          ? ''
          : `: docsync status --json lists ${listed === count ? 'them all' : `the first ${listed}`}`;
      return [paint('dim', `… ${hidden} more of ${printable(name)}${where}`)];
    }),
  ];
}

function stateCell(mapping: MappingStatusAnswer): Cell {
  if (mapping.error !== undefined || mapping.state === undefined) return { text: 'unreadable', style: 'red' };
  if (mapping.state === 'paused')
    return {
      text: mapping.paused === undefined ? 'paused' : `paused (${mapping.paused.reason})`,
      style: 'yellow',
    };
  return { text: mapping.state, style: mapping.state === 'active' ? 'green' : undefined };
}

/** What a table row cannot hold: why a mapping is paused or unreadable, its last error. */
function mappingNotes(mapping: MappingStatusAnswer, paint: Paint, at: At): string[] {
  const notes: string[] = [];
  if (mapping.error !== undefined)
    notes.push(note(paint, 'red', `${mapping.name}: state unreadable: ${mapping.error}`));
  if (mapping.paused !== undefined)
    notes.push(
      note(paint, 'yellow', `${mapping.name}: paused ${at(mapping.paused.at)}: ${mapping.paused.detail}`),
    );
  if (mapping.lastError !== undefined) {
    const { at: when, code, message } = mapping.lastError;
    notes.push(note(paint, 'red', `${mapping.name}: last error ${at(when)}: ${code} ${message}`));
  }
  return notes;
}

/** An indented line under a table, on one line and cut to a terminal row's length. */
function note(paint: Paint, style: Style, text: string): string {
  return `  ${paint(style, reason(text))}`;
}

function changeRequestSection(mappings: readonly MappingStatusAnswer[], paint: Paint, at: At): string[] {
  const rows = mappings.flatMap((mapping) =>
    mapping.changeRequests.map((verdict): Cell[] => {
      const check = mapping.linkChecks.find((c) => c.target === verdict.changeRequest);
      return [
        mapping.name,
        `#${verdict.number}`,
        verdict.mergeable
          ? { text: 'mergeable', style: 'green' }
          : { text: 'not mergeable', style: 'yellow' },
        check === undefined ? 'not checked' : `${check.broken} broken ${at(check.at)}`,
        verdict.reasons.length === 0 ? NONE : reason(verdict.reasons.join('; ')),
      ];
    }),
  );
  if (rows.length === 0) return [`${paint('bold', 'Change requests')}: none open`];
  return [
    paint('bold', 'Change requests'),
    ...formatTable(
      [
        { header: 'MAPPING' },
        { header: 'CR' },
        { header: 'VERDICT' },
        { header: 'LINKS' },
        { header: 'REASONS' },
      ],
      rows,
      paint,
    ),
  ];
}

function linkCheckSection(mappings: readonly MappingStatusAnswer[], paint: Paint, at: At): string[] {
  const rows = mappings.flatMap((mapping) =>
    mapping.linkChecks.map((check): Cell[] => [
      mapping.name,
      check.target === 'main' ? 'main' : check.number === undefined ? check.target : `#${check.number}`,
      check.revision,
      { text: String(check.broken), style: check.broken > 0 ? 'yellow' : undefined },
      check.total === undefined ? NONE : String(check.total),
      at(check.at),
    ]),
  );
  if (rows.length === 0) return [`${paint('bold', 'Link checks')}: none recorded`];
  return [
    paint('bold', 'Link checks'),
    ...formatTable(
      [
        { header: 'MAPPING' },
        { header: 'TARGET' },
        { header: 'REVISION' },
        { header: 'BROKEN', align: 'right' },
        { header: 'LINKS', align: 'right' },
        { header: 'WHEN' },
      ],
      rows,
      paint,
    ),
  ];
}

function specSection(part: StatusAnswer['openapi'], paint: Paint, at: At): string[] {
  if (isPartError(part)) return unavailable('OpenAPI specs', part, paint);
  if (part.length === 0) return [`${paint('bold', 'OpenAPI specs')}: none configured`];
  return [
    paint('bold', 'OpenAPI specs'),
    ...formatTable(
      [
        { header: 'ORG' },
        { header: 'SPEC' },
        { header: 'LAST REFRESH' },
        { header: 'WHEN' },
        { header: 'VERSION' },
        { header: 'LAST CHANGES' },
      ],
      part.map((spec): Cell[] => [
        spec.org,
        spec.slug,
        refreshCell(spec),
        spec.lastRefresh === undefined ? NONE : at(spec.lastRefresh.at),
        spec.version ?? NONE,
        changelogCell(spec),
      ]),
      paint,
    ),
    ...part.flatMap((spec) => specNotes(spec, paint)),
  ];
}

function refreshCell(spec: SpecStatusAnswer): Cell {
  if (spec.error !== undefined) return { text: 'unreadable', style: 'red' };
  const last = spec.lastRefresh;
  if (last === undefined) return 'not yet';
  if (last.error !== undefined) return { text: `${last.result} (${last.error.code})`, style: 'red' };
  if (last.result === 'invalid') return { text: last.result, style: 'red' };
  return { text: last.result, style: last.result === 'uploaded' ? 'green' : undefined };
}

function changelogCell(spec: SpecStatusAnswer): string {
  const lines = spec.lastNewVersion?.changelog ?? [];
  const [first] = lines;
  if (first === undefined) return NONE;
  return lines.length > 1 ? `${first} (+${lines.length - 1} more)` : first;
}

function specNotes(spec: SpecStatusAnswer, paint: Paint): string[] {
  const message = spec.error ?? spec.lastRefresh?.error?.message;
  return message === undefined ? [] : [note(paint, 'red', `${spec.slug}: ${message}`)];
}

function queueSection(part: StatusAnswer['queues'], paint: Paint): string[] {
  if (isPartError(part)) return unavailable('Queues', part, paint);
  const entries = Object.entries(part);
  const states = [...new Set(entries.flatMap(([, counts]) => Object.keys(counts)))];
  return [
    paint('bold', 'Queues'),
    ...formatTable(
      [
        { header: 'QUEUE' },
        ...states.map((state) => ({ header: state.toUpperCase(), align: 'right' as const })),
      ],
      entries.map(([queue, counts]): Cell[] => [
        queue,
        ...states.map((state): Cell => {
          const count = counts[state] ?? 0;
          return { text: String(count), style: state === 'failed' && count > 0 ? 'red' : undefined };
        }),
      ]),
      paint,
    ),
  ];
}

function nextRunSection(part: StatusAnswer['nextRuns'], paint: Paint, at: At): string[] {
  if (part === undefined) return [];
  if (isPartError(part)) return unavailable('Next runs', part, paint);
  if (part.length === 0) return [`${paint('bold', 'Next runs')}: none scheduled`];
  const shown = part.slice(0, SHOWN_NEXT_RUNS);
  return [
    paint('bold', 'Next runs'),
    ...formatTable(
      [
        { header: 'WHEN' },
        { header: 'AT' },
        { header: 'QUEUE' },
        { header: 'SCHEDULER' },
        { header: 'SCHEDULE' },
      ],
      shown.map((run): Cell[] => {
        const when = at(run.next);
        return [
          when.endsWith(' ago') ? 'due' : when,
          timestamp(run.next),
          run.queue,
          schedulerName(run.key),
          scheduleText(run) ?? NONE,
        ];
      }),
      paint,
    ),
    ...more(part.length - shown.length, paint),
  ];
}

function eventSection(part: StatusAnswer['events'], paint: Paint, at: At): string[] {
  if (part === undefined) return [];
  if (isPartError(part)) return unavailable('Recent events', part, paint);
  if (part.length === 0) return [`${paint('bold', 'Recent events')}: none yet`];
  const shown = part.slice(0, SHOWN_EVENTS);
  return [
    paint('bold', 'Recent events'),
    ...formatTable(
      [{ header: 'WHEN' }, { header: 'MAPPING' }, { header: 'WHAT HAPPENED' }],
      shown.map((event): Cell[] => [at(event.at), event.mapping ?? NONE, reason(event.summary)]),
      paint,
    ),
    ...more(part.length - shown.length, paint),
  ];
}

function failureSection(part: StatusAnswer['failures'], paint: Paint, at: At): string[] {
  if (part === undefined) return [];
  if (isPartError(part)) return unavailable('Recent failures', part, paint);
  if (part.length === 0) return [`${paint('bold', 'Recent failures')}: none`];
  const shown = part.slice(0, SHOWN_FAILURES);
  return [
    paint('bold', paint('red', `Recent failures (${part.length})`)),
    ...formatTable(
      [
        { header: 'WHEN' },
        { header: 'QUEUE' },
        { header: 'JOB' },
        { header: 'ID' },
        { header: 'ATTEMPTS', align: 'right' },
        { header: 'REASON' },
      ],
      shown.map((failure): Cell[] => [
        at(failure.at),
        failure.queue,
        failure.name,
        failure.id,
        String(failure.attemptsMade),
        reason(failure.failedReason),
      ]),
      paint,
    ),
    ...more(part.length - shown.length, paint),
  ];
}

function more(hidden: number, paint: Paint): string[] {
  return hidden > 0 ? [paint('dim', `… ${hidden} more: docsync status --json shows them all`)] : [];
}

/** A reason on one line, cut to a length a terminal row can hold. */
function reason(text: string): string {
  const line = printable(text);
  return line.length > REASON_CHARS ? `${line.slice(0, REASON_CHARS - 1)}…` : line;
}

/** `2026-11-21 19:08:58Z`: an ISO time without its milliseconds. */
function timestamp(iso: string): string {
  return printable(iso)
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z');
}
