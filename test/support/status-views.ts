// A /status answer as people read it, for the tests of what the views say: the status page's main
// part as plain text, and `docsync status`'s tables without colour.
import { renderStatusTables } from '../../src/cli/render-status-tables.js';
import { renderStatusPage } from '../../src/status/render-status-page.js';
import type { StatusAnswer } from '../../src/status/status-answer-schema.js';

/** The page's words below its head, tags taken out and spaces run together. */
export function pageText(status: StatusAnswer, now: Date): string | undefined {
  return renderStatusPage(status, { now, refreshSeconds: 5, dashboard: false })
    .split('<main>')[1]
    ?.replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');
}

export function tablesText(status: StatusAnswer, now: Date): string {
  return renderStatusTables(status, { now, color: false });
}
