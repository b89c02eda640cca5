// The status page at `/` for people: the /status answer as server-rendered HTML that reloads
// itself, with no script and no build step. A headline first ("all in sync", or what needs
// attention, each with what and why and a hint), the shared budget of the service when
// service.rateLimit is set, then mappings (a failing one in red), what their
// last imports read past (import warnings), change requests and their verdicts, broken links with
// their file and line in git, link checks, OpenAPI specs, recent events and failures (repeats
// counted), and the queue internals folded away. Pure: the answer and the clock come in, the page
// goes out.
import { warningLocation as warningWhere } from '../content/content-warning.js';
import { type Attention, attentionOf } from './attention.js';
import { formatDuration } from './format-time.js';
import { html, SafeHtml, safeHref } from './html.js';
import { eventSection, failureSection, queueInternals } from './page-activity-sections.js';
import { brokenLinkSection, linkCheckSection } from './page-link-sections.js';
import {
  type At,
  hintLine,
  listSection,
  type PageOptions,
  page,
  row,
  section,
  styled,
  table,
  time,
} from './page-markup.js';
import { serviceBudgetLine } from './page-service-budget.js';
import { versionChangesCell } from './page-version-changes.js';
import { type ShownWarnings, shownWarnings } from './shown-warnings.js';
import type { MappingStatusAnswer, SpecStatusAnswer, StatusAnswer } from './status-answer-schema.js';
import { isPartError } from './status-answer-schema.js';

export { PAGE_EVENTS, PAGE_FAILURES, PAGE_NEXT_RUNS } from './page-activity-sections.js';
export { PAGE_BROKEN_LINKS } from './page-link-sections.js';
export type { PageOptions } from './page-markup.js';

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
    attentionSection(attentionOf(status, options.now)),
    html`<p>Version ${status.version}, up ${formatDuration(status.uptimeSeconds * 1000)}
      (since ${at(status.startedAt)}). Reloads every ${options.refreshSeconds} s.</p>`,
    serviceBudgetLine(status.serviceBudget),
    mappingsSection(status.mappings, at),
    importWarningSection(status.mappings),
    changeRequestSection(status.mappings, at),
    brokenLinkSection(status.mappings),
    linkCheckSection(status.mappings, at),
    specSection(status.openapi, at),
    eventSection(status, at),
    failureSection(status.failures, at),
    queueInternals(status, at),
  );
}

function changeRequestLink(cr: { number: number; url?: string | undefined }): SafeHtml {
  const href = safeHref(cr.url);
  return href === undefined ? html`#${cr.number}` : html`<a href="${href}">#${cr.number}</a>`;
}

/**
 * The service's address of a change request of the mapping, where docsync knows it: the state keeps
 * it with the last import only, so a verdict or a merge of that same change request links there too.
 */
function addressOf(mapping: MappingStatusAnswer, id: string): string | undefined {
  const imported = mapping.lastImport?.changeRequest;
  return imported?.id === id ? imported.url : undefined;
}

/** The headline: all in sync, or how many things need attention, each with what, why and what to check. */
function attentionSection(attention: Attention | undefined): SafeHtml {
  if (attention === undefined) return new SafeHtml('');
  const title = attention.headline;
  const style = attention.items.length === 0 ? 'ok' : 'bad';
  return html`<section id="health" aria-labelledby="health-title" role="status">
<h2 id="health-title" class="${style}">${title.charAt(0).toUpperCase()}${title.slice(1)}</h2>
${
  attention.items.length === 0
    ? ''
    : html`<ul>${attention.items.map(
        (item) =>
          html`<li>${styled(item.style, item.text)}${
            item.anchor === undefined ? '' : html` <a href="#${item.anchor}">(list)</a>`
          }${hintLine(item.hint)}</li>`,
      )}</ul>`
}
</section>`;
}

/** The colour of each health state. */
const STATE_STYLE: Readonly<Record<string, 'ok' | 'warn' | 'bad'>> = {
  ok: 'ok',
  degraded: 'warn',
  failing: 'bad',
  paused: 'warn',
};

/** A health state, and the job failing most in a row behind it. */
function healthCell(row: Pick<MappingStatusAnswer, 'state' | 'failures'>): SafeHtml {
  const state = row.state ?? 'unknown';
  const [worst] = row.failures;
  return html`${styled(STATE_STYLE[state] ?? 'dim', state)}${
    worst === undefined ? '' : html` ${styled('dim', `${worst.job} ×${worst.count}`)}`
  }`;
}

function mappingsSection(part: StatusAnswer['mappings'], at: At): SafeHtml {
  return listSection(part, {
    id: 'mappings',
    title: 'Mappings',
    none: 'None configured.',
    headers: ['Mapping', 'Direction', 'State', 'Last import', 'Last merge', 'Last export', 'Last error'],
    row: (mapping) =>
      row(
        html`<strong${mapping.state === 'failing' ? html` class="bad"` : ''}>${mapping.name}</strong>`,
        directionCell(mapping, at),
        stateCell(mapping, at),
        importCell(mapping, at),
        mapping.lastMerge === undefined
          ? undefined
          : html`merged ${changeRequestLink({
              number: mapping.lastMerge.changeRequest.number,
              url: addressOf(mapping, mapping.lastMerge.changeRequest.id),
            })} ${at(mapping.lastMerge.at)}`,
        exportCell(mapping, at),
        mapping.lastError === undefined
          ? undefined
          : html`${styled('bad', mapping.lastError.code)} ${mapping.lastError.message} ${at(mapping.lastError.at)}${hintLine(mapping.lastError.hint)}`,
      ),
  });
}

/** The direction, and whether the repository's push webhooks spare its polls (src/import/plan-safety-net.ts). */
function directionCell(mapping: MappingStatusAnswer, at: At): SafeHtml {
  const hook = mapping.pushHook;
  if (hook === undefined) return html`${mapping.direction}`;
  return html`${mapping.direction}<br><span class="dim">push webhooks, last ${at(hook.at)}: git looked at every ${formatDuration(hook.looksEvery)}</span>`;
}

function stateCell(mapping: MappingStatusAnswer, at: At): SafeHtml {
  if (mapping.error !== undefined || mapping.state === undefined)
    return html`${styled('bad', 'unreadable')} ${mapping.error}`;
  if (mapping.state === 'paused')
    return mapping.paused === undefined
      ? styled('warn', 'paused')
      : html`${styled('warn', `paused (${mapping.paused.reason})`)} ${mapping.paused.detail} ${at(mapping.paused.at)}`;
  return healthCell(mapping);
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
        changeRequestLink({ number: verdict.number, url: addressOf(mapping, verdict.changeRequest) }),
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

function specSection(part: StatusAnswer['openapi'], at: At): SafeHtml {
  return listSection(part, {
    id: 'specs',
    title: 'OpenAPI specs',
    none: 'None configured.',
    headers: ['Spec', 'State', 'Last refresh', 'Version', 'Last changes'],
    row: (spec) =>
      row(
        spec.title === undefined
          ? html`${spec.org}/<strong>${spec.slug}</strong>`
          : html`<strong>${spec.title}</strong> ${spec.org}/${spec.slug}`,
        spec.error === undefined ? healthCell(spec) : undefined,
        refreshCell(spec, at),
        spec.version,
        changelogCell(spec),
      ),
  });
}

function refreshCell(spec: SpecStatusAnswer, at: At): SafeHtml {
  if (spec.error !== undefined) return html`${styled('bad', 'unreadable')} ${spec.error}`;
  const last = spec.lastRefresh;
  if (last === undefined) return styled('dim', 'not yet');
  if (last.error !== undefined)
    return html`${styled('bad', `${last.result} (${last.error.code})`)} ${last.error.message} ${at(last.at)}${hintLine(last.error.hint)}`;
  const style = last.result === 'uploaded' ? 'ok' : last.result === 'invalid' ? 'bad' : 'dim';
  return html`${styled(style, last.result)} ${at(last.at)}`;
}

function changelogCell(spec: SpecStatusAnswer): SafeHtml | undefined {
  const changes = spec.lastNewVersion?.changes;
  if (changes !== undefined) return versionChangesCell(changes);
  // A record from before the changes were kept in full: its changelog's lines.
  const lines = spec.lastNewVersion?.changelog ?? [];
  if (lines.length === 0) return undefined;
  return html`${lines.map((line, i) => html`${i > 0 ? html`<br>` : ''}${line}`)}`;
}
