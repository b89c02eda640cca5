// The status page at `/` for people: the /status answer as server-rendered HTML that reloads
// itself, with no script and no build step. Mappings, what their last imports read past (import
// warnings), change requests and their verdicts, link checks, OpenAPI specs, recent events and
// failures, queues and next runs. Pure: the answer and the clock come in, the page goes out.
import { formatDuration, relativeTime } from './format-time.js';
import { html, SafeHtml, safeHref } from './html.js';
import { schedulerName, scheduleText } from './schedule-text.js';
import { type ShownWarnings, shownWarnings, warningWhere } from './shown-warnings.js';
import type {
  EventAnswer,
  FailureAnswer,
  MappingStatusAnswer,
  NextRunAnswer,
  PartErrorAnswer,
  SpecStatusAnswer,
  StatusAnswer,
} from './status-answer-schema.js';

export interface PageOptions {
  now: Date;
  /** Seconds between reloads. */
  refreshSeconds: number;
  /** Whether the queue dashboard is served at /ui, to link to it. */
  dashboard: boolean;
}

/** Rows shown of the long lists; /status has them all. */
export const PAGE_EVENTS = 30;
export const PAGE_FAILURES = 20;
export const PAGE_NEXT_RUNS = 20;
/** Import warnings shown per mapping: enough to start fixing, short enough to keep the page a page. */
export const PAGE_WARNINGS = 10;

/** The page served when the status cannot be read at all (Redis down): it keeps reloading. */
export function renderUnavailablePage(message: string, options: PageOptions): string {
  return page(
    options,
    html`<p class="problem" role="alert">${message}</p>`,
    html`<p>This page reloads every ${options.refreshSeconds} s.</p>`,
  );
}

export function renderStatusPage(status: StatusAnswer, options: PageOptions): string {
  const at = (iso: string) => time(iso, options.now);
  return page(
    options,
    html`<p>Version ${status.version}, up ${formatDuration(status.uptimeSeconds * 1000)}
      (since ${at(status.startedAt)}). Reloads every ${options.refreshSeconds} s.</p>`,
    mappingsSection(status.mappings, at),
    importWarningSection(status.mappings),
    changeRequestSection(status.mappings, at),
    linkCheckSection(status.mappings, at),
    specSection(status.openapi, at),
    eventSection(status.events, at),
    failureSection(status.failures, at),
    queueSection(status.queues),
    nextRunSection(status.nextRuns, at),
  );
}

type At = (iso: string) => SafeHtml;

function page(options: PageOptions, ...body: SafeHtml[]): string {
  const nav = [
    html`<a href="/status">JSON</a>`,
    html`<a href="/metrics">metrics</a>`,
    options.dashboard ? html`<a href="/ui">queues dashboard</a>` : undefined,
  ].filter((link) => link !== undefined);
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${options.refreshSeconds}">
<title>docsync status</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>docsync</h1><nav>${nav.map((link, i) => html`${i > 0 ? ' · ' : ''}${link}`)}</nav></header>
<main>
${body}
</main>
</body>
</html>
`.markup;
}

const STYLE = new SafeHtml(`
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #1d2330; background: #fff; }
header { display: flex; gap: 1rem; align-items: baseline; }
h1 { font-size: 1.4rem; margin: 0; }
h2 { font-size: 1.1rem; margin: 1.6rem 0 .4rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .25rem .6rem .25rem 0; border-bottom: 1px solid #e3e6ec; vertical-align: top; }
th { font-weight: 600; color: #5a6272; }
table.counts td + td, table.counts th + th { text-align: right; }
code { font-size: 12px; }
.ok { color: #137333; } .warn { color: #9a5b00; } .bad { color: #b3261e; } .dim { color: #5a6272; }
.problem { color: #b3261e; font-weight: 600; }
`);

function section(id: string, title: string, content: SafeHtml, count?: number): SafeHtml {
  return html`<section id="${id}" aria-labelledby="${id}-title">
<h2 id="${id}-title">${title}${count === undefined ? '' : ` (${count})`}</h2>
${content}
</section>`;
}

/** A table; `counts` right-aligns every column but the first. */
function table(headers: readonly string[], rows: readonly SafeHtml[], kind?: 'counts') {
  return html`<table${kind === undefined ? '' : html` class="${kind}"`}><thead><tr>${headers.map(
    (header) => html`<th>${header}</th>`,
  )}</tr></thead><tbody>${rows}</tbody></table>`;
}

function row(...cells: (SafeHtml | string | undefined)[]): SafeHtml {
  return html`<tr>${cells.map((cell) => html`<td>${cell ?? '-'}</td>`)}</tr>`;
}

function isPartError(part: unknown): part is PartErrorAnswer {
  return typeof part === 'object' && part !== null && !Array.isArray(part) && 'error' in part;
}

function unavailable(id: string, title: string, part: PartErrorAnswer): SafeHtml {
  return section(id, title, html`<p class="bad">Unavailable: ${part.error}</p>`);
}

function time(iso: string, now: Date): SafeHtml {
  return html`<time datetime="${iso}" title="${iso}">${relativeTime(iso, now)}</time>`;
}

function styled(style: 'ok' | 'warn' | 'bad' | 'dim', text: string): SafeHtml {
  return html`<span class="${style}">${text}</span>`;
}

function changeRequestLink(cr: { number: number; url?: string | undefined }): SafeHtml {
  const href = safeHref(cr.url);
  return href === undefined ? html`#${cr.number}` : html`<a href="${href}">#${cr.number}</a>`;
}

function mappingsSection(part: StatusAnswer['mappings'], at: At): SafeHtml {
  if (isPartError(part)) return unavailable('mappings', 'Mappings', part);
  if (part.length === 0) return section('mappings', 'Mappings', html`<p>None configured.</p>`);
  return section(
    'mappings',
    'Mappings',
    table(
      ['Mapping', 'Direction', 'State', 'Last import', 'Last merge', 'Last export', 'Last error'],
      part.map((mapping) =>
        row(
          html`<strong>${mapping.name}</strong>`,
          mapping.direction,
          stateCell(mapping, at),
          importCell(mapping, at),
          mapping.lastMerge === undefined
            ? undefined
            : html`merged #${mapping.lastMerge.changeRequest.number} ${at(mapping.lastMerge.at)}`,
          exportCell(mapping, at),
          mapping.lastError === undefined
            ? undefined
            : html`${styled('bad', mapping.lastError.code)} ${mapping.lastError.message} ${at(mapping.lastError.at)}`,
        ),
      ),
    ),
  );
}

function stateCell(mapping: MappingStatusAnswer, at: At): SafeHtml {
  if (mapping.error !== undefined || mapping.state === undefined)
    return html`${styled('bad', 'unreadable')} ${mapping.error}`;
  if (mapping.state === 'paused')
    return mapping.paused === undefined
      ? styled('warn', 'paused')
      : html`${styled('warn', `paused (${mapping.paused.reason})`)} ${mapping.paused.detail} ${at(mapping.paused.at)}`;
  return styled(mapping.state === 'active' ? 'ok' : 'dim', mapping.state);
}

function importCell(mapping: MappingStatusAnswer, at: At): SafeHtml | undefined {
  const last = mapping.lastImport;
  if (last === undefined) return undefined;
  return html`${last.result}${last.sha === undefined ? '' : html` <code>${last.sha.slice(0, 7)}</code>`}${
    last.changeRequest === undefined ? '' : html` into ${changeRequestLink(last.changeRequest)}`
  } ${at(last.at)}${
    last.warningCount === 0
      ? ''
      : html`<br><a class="warn" href="#import-warnings">${plural(last.warningCount, 'warning')}</a>`
  }`;
}

/** `and 5 more (/status lists them all)`: where the warnings not shown here can be read. */
function moreWarnings({ shown, hidden, listed, count }: ShownWarnings<unknown>): string {
  // Past the state's limit the rest are counted, not kept: /status has no more to show then.
  if (listed <= shown.length) return `and ${hidden} more`;
  return `and ${hidden} more (/status lists ${listed === count ? 'them all' : `the first ${listed}`})`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** What each mapping's last import read past in its folder: where, and what to do about it. */
function importWarningSection(part: StatusAnswer['mappings']): SafeHtml {
  // An unreadable mappings part says so in its own section already.
  if (isPartError(part)) return new SafeHtml('');
  const rows = part.flatMap((mapping) => {
    const last = mapping.lastImport;
    if (last === undefined || last.warningCount === 0) return [];
    const view = shownWarnings(last.warnings, last.warningCount, PAGE_WARNINGS);
    const more = view.hidden === 0 ? [] : [row(mapping.name, '', styled('dim', moreWarnings(view)))];
    return [
      ...view.shown.map((warning) =>
        row(
          mapping.name,
          html`<code>${warningWhere(warning)}</code>`,
          html`${warning.message} ${styled('dim', warning.code)}`,
        ),
      ),
      ...more,
    ];
  });
  return section(
    'import-warnings',
    'Import warnings',
    rows.length === 0 ? html`<p>None in the last imports.</p>` : table(['Mapping', 'Where', 'Warning'], rows),
  );
}

function exportCell(mapping: MappingStatusAnswer, at: At): SafeHtml | undefined {
  const last = mapping.lastExport;
  const conflict = mapping.pendingConflict;
  if (last === undefined && conflict === undefined) return undefined;
  return html`${
    last === undefined
      ? ''
      : html`${last.result === 'conflict' ? styled('warn', 'conflict') : last.result}${
          last.sha === undefined ? '' : html` <code>${last.sha.slice(0, 7)}</code>`
        } ${at(last.at)}`
  }${conflict === undefined ? '' : html`<br>${styled('warn', `conflict branch ${conflict.branch} waits for a merge`)}`}`;
}

function changeRequestSection(part: StatusAnswer['mappings'], at: At): SafeHtml {
  if (isPartError(part)) return new SafeHtml('');
  const rows = part.flatMap((mapping) =>
    mapping.changeRequests.map((verdict) => {
      const check = mapping.linkChecks.find((c) => c.target === verdict.changeRequest);
      return row(
        mapping.name,
        html`#${verdict.number}`,
        verdict.subject,
        verdict.mergeable ? styled('ok', 'mergeable') : styled('warn', 'not mergeable'),
        verdict.reasons.length === 0 ? undefined : verdict.reasons.join('; '),
        check === undefined ? 'not checked' : html`${check.broken} broken ${at(check.at)}`,
      );
    }),
  );
  return section(
    'change-requests',
    'Change requests',
    rows.length === 0
      ? html`<p>None open.</p>`
      : table(['Mapping', 'Change request', 'Subject', 'Verdict', 'Reasons', 'Links'], rows),
  );
}

function linkCheckSection(part: StatusAnswer['mappings'], at: At): SafeHtml {
  if (isPartError(part)) return new SafeHtml('');
  const rows = part.flatMap((mapping) =>
    mapping.linkChecks.map((check) =>
      row(
        mapping.name,
        check.target === 'main'
          ? 'main content'
          : check.number === undefined
            ? check.target
            : `change request #${check.number}`,
        html`<code>${check.revision}</code>`,
        check.broken > 0 ? styled('warn', `${check.broken} broken`) : styled('ok', 'no broken link'),
        check.total === undefined ? undefined : String(check.total),
        at(check.at),
      ),
    ),
  );
  return section(
    'link-checks',
    'Link checks',
    rows.length === 0
      ? html`<p>None recorded yet.</p>`
      : table(['Mapping', 'Target', 'Revision', 'Result', 'Links', 'When'], rows),
  );
}

function specSection(part: StatusAnswer['openapi'], at: At): SafeHtml {
  if (isPartError(part)) return unavailable('specs', 'OpenAPI specs', part);
  if (part.length === 0) return section('specs', 'OpenAPI specs', html`<p>None configured.</p>`);
  return section(
    'specs',
    'OpenAPI specs',
    table(
      ['Spec', 'Last refresh', 'Version', 'Last changes'],
      part.map((spec) =>
        row(
          html`${spec.org}/<strong>${spec.slug}</strong>`,
          refreshCell(spec, at),
          spec.version,
          changelogCell(spec),
        ),
      ),
    ),
  );
}

function refreshCell(spec: SpecStatusAnswer, at: At): SafeHtml {
  if (spec.error !== undefined) return html`${styled('bad', 'unreadable')} ${spec.error}`;
  const last = spec.lastRefresh;
  if (last === undefined) return styled('dim', 'not yet');
  if (last.error !== undefined)
    return html`${styled('bad', `${last.result} (${last.error.code})`)} ${last.error.message} ${at(last.at)}`;
  const style = last.result === 'uploaded' ? 'ok' : last.result === 'invalid' ? 'bad' : 'dim';
  return html`${styled(style, last.result)} ${at(last.at)}`;
}

function changelogCell(spec: SpecStatusAnswer): SafeHtml | undefined {
  const lines = spec.lastNewVersion?.changelog ?? [];
  if (lines.length === 0) return undefined;
  return html`${lines.map((line, i) => html`${i > 0 ? html`<br>` : ''}${line}`)}`;
}

function eventSection(part: StatusAnswer['events'], at: At): SafeHtml {
  if (part === undefined) return new SafeHtml('');
  if (isPartError(part)) return unavailable('events', 'Recent events', part);
  if (part.length === 0) return section('events', 'Recent events', html`<p>Nothing yet.</p>`);
  const shown = part.slice(0, PAGE_EVENTS);
  return section(
    'events',
    'Recent events',
    table(
      ['When', 'Mapping', 'What happened'],
      shown.map((event: EventAnswer) => row(at(event.at), event.mapping, event.summary)),
    ),
  );
}

function failureSection(part: StatusAnswer['failures'], at: At): SafeHtml {
  if (part === undefined) return new SafeHtml('');
  if (isPartError(part)) return unavailable('failures', 'Recent failures', part);
  if (part.length === 0) return section('failures', 'Recent failures', html`<p>None.</p>`);
  const shown = part.slice(0, PAGE_FAILURES);
  return section(
    'failures',
    'Recent failures',
    table(
      ['When', 'Queue', 'Job', 'Attempts', 'Reason'],
      shown.map((failure: FailureAnswer) =>
        row(
          at(failure.at),
          failure.queue,
          failure.name,
          String(failure.attemptsMade),
          styled('bad', failure.failedReason),
        ),
      ),
    ),
    part.length,
  );
}

function queueSection(part: StatusAnswer['queues']): SafeHtml {
  if (isPartError(part)) return unavailable('queues', 'Queues', part);
  const entries = Object.entries(part);
  const states = [...new Set(entries.flatMap(([, counts]) => Object.keys(counts)))];
  return section(
    'queues',
    'Queues',
    table(
      ['Queue', ...states],
      entries.map(([queue, counts]) =>
        row(
          queue,
          ...states.map((state) => {
            const count = counts[state] ?? 0;
            return state === 'failed' && count > 0 ? styled('bad', String(count)) : String(count);
          }),
        ),
      ),
      'counts',
    ),
  );
}

function nextRunSection(part: StatusAnswer['nextRuns'], at: At): SafeHtml {
  if (part === undefined) return new SafeHtml('');
  if (isPartError(part)) return unavailable('next-runs', 'Next runs', part);
  if (part.length === 0) return section('next-runs', 'Next runs', html`<p>None scheduled.</p>`);
  return section(
    'next-runs',
    'Next runs',
    table(
      ['When', 'Queue', 'Scheduler', 'Schedule'],
      part
        .slice(0, PAGE_NEXT_RUNS)
        .map((run: NextRunAnswer) => row(at(run.next), run.queue, schedulerName(run.key), scheduleText(run))),
    ),
  );
}
