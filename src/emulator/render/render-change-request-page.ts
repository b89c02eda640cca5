// A change request as a person reads it in the local service: its subject, number, status, space,
// and the pages it changes against the main content, as one small HTML page with no script. It is
// what the change request's `urls.app` opens (the status page and the link comment link to it).

import type { StoredChangeRequest, StoredSpace } from '../emulator-state.js';
import type { ChangedPage } from './changed-pages.js';
import { html, SafeHtml } from './html.js';

export interface ChangeRequestView {
  space: Pick<StoredSpace, 'title'>;
  changeRequest: Pick<StoredChangeRequest, 'number' | 'subject' | 'status' | 'createdAt' | 'updatedAt'>;
  outdated: boolean;
  changes: readonly ChangedPage[];
  /** Pages of the change request's revision. */
  pageCount: number;
}

const CHANGE_STYLE: Readonly<Record<ChangedPage['change'], string>> = {
  added: 'ok',
  changed: 'warn',
  removed: 'bad',
};

export function renderChangeRequestPage(view: ChangeRequestView): string {
  const { changeRequest: cr, space } = view;
  const subject = cr.subject === '' ? '(no subject)' : cr.subject;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>#${cr.number} ${subject}</title>
<style>${STYLE}</style>
</head>
<body>
<header><p class="dim">${space.title} · change request #${cr.number} · local documentation service</p>
<h1>${subject}</h1>
<p><span class="status ${cr.status}">${cr.status}</span>${view.outdated ? html` <span class="warn">outdated: the main content moved since</span>` : ''}</p>
<p class="dim">Opened ${cr.createdAt}, last changed ${cr.updatedAt}</p></header>
<main>
<section aria-labelledby="pages-title">
<h2 id="pages-title">Pages changed (${view.changes.length})</h2>
<p class="dim">Against the main content it was made from or last updated from; it holds ${view.pageCount} page${view.pageCount === 1 ? '' : 's'}.</p>
${
  view.changes.length === 0
    ? html`<p>No page differs from the main content.</p>`
    : html`<table><thead><tr><th>Page</th><th>Path</th><th>Change</th></tr></thead><tbody>${view.changes.map(
        (page) =>
          html`<tr><td>${page.title}</td><td><code>${page.path}</code></td><td class="${CHANGE_STYLE[page.change]}">${page.change}</td></tr>`,
      )}</tbody></table>`
}
</section>
</main>
</body>
</html>
`.markup;
}

const STYLE = new SafeHtml(`
body { font: 15px/1.5 system-ui, sans-serif; margin: 2rem auto; max-width: 48rem; padding: 0 1rem; color: #1d2330; }
h1 { font-size: 1.5rem; margin: .2rem 0; }
h2 { font-size: 1.1rem; margin-top: 1.6rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .3rem .6rem .3rem 0; border-bottom: 1px solid #e3e6ec; }
.status { padding: .1rem .5rem; border-radius: .6rem; background: #e3e6ec; }
.status.open { background: #dcefe0; } .status.merged { background: #e6dcf5; }
.ok { color: #137333; } .warn { color: #9a5b00; } .bad { color: #b3261e; } .dim { color: #5a6272; }
`);
