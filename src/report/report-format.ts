// The formats `docsync once --format` prints its result in, and the one place that picks a renderer.
import type { OnceResult } from './once-result.js';
import { renderGithubAnnotations } from './render-github-annotations.js';
import { renderJsonReport } from './render-json-report.js';
import { renderJunitReport } from './render-junit-report.js';
import { renderMarkdownSummary } from './render-markdown-summary.js';
import { renderSarifReport } from './render-sarif-report.js';
import { renderTextReport } from './render-text-report.js';

export const REPORT_FORMATS = ['text', 'json', 'junit', 'sarif', 'github', 'markdown'] as const;

export type ReportFormat = (typeof REPORT_FORMATS)[number];

export function isReportFormat(text: string): text is ReportFormat {
  return (REPORT_FORMATS as readonly string[]).includes(text);
}

/** The whole report, ending with a newline. */
export function renderReport(format: ReportFormat, result: OnceResult): string {
  const renderers = {
    text: renderTextReport,
    json: renderJsonReport,
    junit: renderJunitReport,
    sarif: renderSarifReport,
    github: renderGithubAnnotations,
    markdown: renderMarkdownSummary,
  } satisfies Record<ReportFormat, (result: OnceResult) => string>;
  return renderers[format](result);
}
