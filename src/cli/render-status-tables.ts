// `docsync status` for people: the /status answer as plain-text tables, after a headline ("all in
// sync", or what needs attention, each with what, why and a hint): mappings, their last imports'
// warnings, change requests with their verdicts, broken links (file:line), link checks, OpenAPI
// specs, queues, next runs, recent events (repeats counted) and failures. Pure: the answer, the
// clock and whether to colour come in, the text goes out.
import { warningLocation as warningWhere } from '../content/content-warning.js';
import { changeRequestNumbers, eventText } from '../status/event-text.js';
import { formatDuration, relativeTime } from '../status/format-time.js';
import { groupEvents } from '../status/grouped-rows.js';
import { schedulerName, scheduleText } from '../status/schedule-text.js';
import { shownWarnings } from '../status/shown-warnings.js';
import {
  isPartError,
  type MappingStatusAnswer,
  type PartErrorAnswer,
  type SpecStatusAnswer,
  type StatusAnswer,
} from '../status/status-answer-schema.js';
import { brokenLinkTable, linkCheckTable } from './link-check-tables.js';
import { specChangeLines, specChangesCell } from './spec-change-lines.js';
import { healthCell, healthLines, hintNote, NONE, note, reason, timestamp } from './status-lines.js';
import { type Cell, type Column, formatTable, type Paint, painter, printable } from './text-table.js';

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

export function renderStatusTables(status: StatusAnswer, options: RenderOptions): string {
  const paint = painter(options.color);
  const at = (iso: string) => relativeTime(iso, options.now);
  const sections: string[][] = [
    [
      `${paint('bold', `docsync ${printable(status.version)}`)}, up ${formatDuration(status.uptimeSeconds * 1000)} (since ${timestamp(status.startedAt)})`,
      ...healthLines(status, paint, options.now),
    ],
    ...mappingSections(status.mappings, paint, at),
    specSection(status.openapi, paint, at),
    queueSection(status.queues, paint),
    nextRunSection(status.nextRuns, paint, at),
    eventSection(status, paint, at),
    failureSection(status.failures, paint, at),
  ];
  return `${sections.map((lines) => lines.join('\n')).join('\n\n')}\n`;
}

type At = (iso: string) => string;

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
    brokenLinkTable(part, paint),
    linkCheckTable(part, paint, at),
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
  return [
    ...tableSection(
      'Import warnings',
      'none',
      paint,
      withWarnings.flatMap(({ name, shown }) =>
        shown.map((warning): Cell[] => [name, warningWhere(warning), reason(warning.message)]),
      ),
      [{ header: 'MAPPING' }, { header: 'WHERE' }, { header: 'WARNING' }],
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
  return healthCell(mapping);
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
    const { at: when, code, message, hint } = mapping.lastError;
    notes.push(note(paint, 'red', `${mapping.name}: last error ${at(when)}: ${code} ${message}`));
    notes.push(...hintNote(paint, hint));
  }
  if (mapping.pushHook !== undefined)
    notes.push(
      note(
        paint,
        'dim',
        `${mapping.name}: push webhooks, last ${at(mapping.pushHook.at)}: git looked at every ${formatDuration(mapping.pushHook.looksEvery)}`,
      ),
    );
  return notes;
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
  return tableSection('Change requests', 'none open', paint, rows, [
    { header: 'MAPPING' },
    { header: 'CR' },
    { header: 'VERDICT' },
    { header: 'LINKS' },
    { header: 'REASONS' },
  ]);
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
        { header: 'STATE' },
        { header: 'LAST REFRESH' },
        { header: 'WHEN' },
        { header: 'VERSION' },
        { header: 'LAST CHANGES' },
      ],
      part.map((spec): Cell[] => [
        spec.org,
        spec.title === undefined ? spec.slug : `${spec.slug} (${spec.title})`,
        spec.error === undefined ? healthCell(spec) : NONE,
        refreshCell(spec),
        spec.lastRefresh === undefined ? NONE : at(spec.lastRefresh.at),
        spec.version ?? NONE,
        specChangesCell(spec),
      ]),
      paint,
    ),
    ...part.flatMap((spec) => specNotes(spec, paint)),
    ...part.flatMap((spec) => specChangeLines(spec, paint)),
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

function specNotes(spec: SpecStatusAnswer, paint: Paint): string[] {
  const message = spec.error ?? spec.lastRefresh?.error?.message;
  if (message === undefined) return [];
  return [
    note(paint, 'red', `${spec.slug}: ${message}`),
    ...hintNote(paint, spec.error === undefined ? spec.lastRefresh?.error?.hint : undefined),
  ];
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
  return listSection(part, paint, {
    title: 'Next runs',
    none: 'none scheduled',
    limit: SHOWN_NEXT_RUNS,
    columns: [
      { header: 'WHEN' },
      { header: 'AT' },
      { header: 'QUEUE' },
      { header: 'SCHEDULER' },
      { header: 'SCHEDULE' },
    ],
    row: (run) => {
      const when = at(run.next);
      return [
        when.endsWith(' ago') ? 'due' : when,
        timestamp(run.next),
        run.queue,
        schedulerName(run.key),
        scheduleText(run) ?? NONE,
      ];
    },
  });
}

function eventSection(status: StatusAnswer, paint: Paint, at: At): string[] {
  const numbers = changeRequestNumbers(status.mappings);
  const part = status.events;
  return listSection(isPartError(part) || part === undefined ? part : groupEvents(part), paint, {
    title: 'Recent events',
    none: 'none yet',
    limit: SHOWN_EVENTS,
    columns: [{ header: 'WHEN' }, { header: 'MAPPING' }, { header: 'WHAT HAPPENED' }],
    row: ({ newest, count }) => [
      at(newest.at),
      newest.mapping ?? NONE,
      reason(`${eventText(newest.summary, numbers)}${count === 1 ? '' : ` ×${count}`}`),
    ],
  });
}

function failureSection(part: StatusAnswer['failures'], paint: Paint, at: At): string[] {
  return listSection(part, paint, {
    title: 'Recent failures',
    none: 'none',
    limit: SHOWN_FAILURES,
    heading: (count) => paint('bold', paint('red', `Recent failures (${count})`)),
    columns: [
      { header: 'WHEN' },
      { header: 'QUEUE' },
      { header: 'JOB' },
      { header: 'ID' },
      { header: 'ATTEMPTS', align: 'right' },
      { header: 'REASON' },
    ],
    row: (failure) => [
      at(failure.at),
      failure.queue,
      failure.name,
      failure.id,
      String(failure.attemptsMade),
      reason(failure.failedReason),
    ],
  });
}

/** One of the long lists, cut to its first `limit` rows. */
interface ListTable<T> {
  title: string;
  /** What follows the title when the list is empty. */
  none: string;
  limit: number;
  /** The title line, when it says more than the title (a count). */
  heading?: (count: number) => string;
  columns: Column[];
  row: (item: T) => Cell[];
}

/** A long list: left out when a daemon older than it sends none, unavailable, none, or a table. */
function listSection<T>(
  part: readonly T[] | PartErrorAnswer | undefined,
  paint: Paint,
  list: ListTable<T>,
): string[] {
  if (part === undefined) return [];
  if (isPartError(part)) return unavailable(list.title, part, paint);
  const shown = part.slice(0, list.limit);
  const [title = '', ...table] = tableSection(
    list.title,
    list.none,
    paint,
    shown.map(list.row),
    list.columns,
  );
  return [
    shown.length === 0 ? title : (list.heading?.(part.length) ?? title),
    ...table,
    ...more(part.length - shown.length, paint),
  ];
}

/** A titled table, or the title and `none` when it has no rows. */
function tableSection(
  title: string,
  none: string,
  paint: Paint,
  rows: Cell[][],
  columns: Column[],
): string[] {
  if (rows.length === 0) return [`${paint('bold', title)}: ${none}`];
  return [paint('bold', title), ...formatTable(columns, rows, paint)];
}

function more(hidden: number, paint: Paint): string[] {
  return hidden > 0 ? [paint('dim', `… ${hidden} more: docsync status --json shows them all`)] : [];
}
