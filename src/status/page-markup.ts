// The building blocks of the status page (src/status/render-status-page.ts): the document with its
// styles and links, sections, tables, rows, times and styled words. Everything interpolated is
// escaped by `html` (src/status/html.ts).
import { relativeTime } from './format-time.js';
import { html, SafeHtml } from './html.js';
import { isPartError, type PartErrorAnswer } from './status-answer-schema.js';

export interface PageOptions {
  now: Date;
  /** Seconds between reloads. */
  refreshSeconds: number;
  /** Whether the queue dashboard is served at /ui, to link to it. */
  dashboard: boolean;
}

export type At = (iso: string) => SafeHtml;

export function page(options: PageOptions, ...body: SafeHtml[]): string {
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
#health h2 { font-size: 1.3rem; margin-top: .8rem; }
.hint { color: #5a6272; font-style: italic; }
`);

export function section(id: string, title: string, content: SafeHtml, count?: number): SafeHtml {
  return html`<section id="${id}" aria-labelledby="${id}-title">
<h2 id="${id}-title">${title}${count === undefined ? '' : ` (${count})`}</h2>
${content}
</section>`;
}

/** A table; `counts` right-aligns every column but the first. */
export function table(headers: readonly string[], rows: readonly SafeHtml[], kind?: 'counts') {
  return html`<table${kind === undefined ? '' : html` class="${kind}"`}><thead><tr>${headers.map(
    (header) => html`<th>${header}</th>`,
  )}</tr></thead><tbody>${rows}</tbody></table>`;
}

export function row(...cells: (SafeHtml | string | undefined)[]): SafeHtml {
  return html`<tr>${cells.map((cell) => html`<td>${cell ?? '-'}</td>`)}</tr>`;
}

export function unavailable(id: string, title: string, part: PartErrorAnswer): SafeHtml {
  return section(id, title, html`<p class="bad">Unavailable: ${part.error}</p>`);
}

export function time(iso: string, now: Date): SafeHtml {
  return html`<time datetime="${iso}" title="${iso}">${relativeTime(iso, now)}</time>`;
}

export function styled(style: 'ok' | 'warn' | 'bad' | 'dim', text: string): SafeHtml {
  return html`<span class="${style}">${text}</span>`;
}

/** What to check about a failure, under its reason. */
export function hintLine(hint: string | undefined): SafeHtml | string {
  return hint === undefined ? '' : html`<br><span class="hint">${hint}</span>`;
}

/** A section listing the items of a part of the answer, one row each. */
export interface ListSection<T> {
  id: string;
  title: string;
  /** The sentence when there is none. */
  none: string;
  headers: readonly string[];
  row: (item: T) => SafeHtml;
  /** Rows shown at most; /status has them all. */
  limit?: number;
  /** Whether the title says how many there are. */
  counted?: boolean;
}

/** Nothing from a daemon older than the part, the reason it is unavailable, none, or its table. */
export function listSection<T>(
  part: readonly T[] | PartErrorAnswer | undefined,
  list: ListSection<T>,
): SafeHtml {
  if (part === undefined) return new SafeHtml('');
  if (isPartError(part)) return unavailable(list.id, list.title, part);
  if (part.length === 0) return section(list.id, list.title, html`<p>${list.none}</p>`);
  return section(
    list.id,
    list.title,
    table(list.headers, part.slice(0, list.limit).map(list.row)),
    list.counted === true ? part.length : undefined,
  );
}
