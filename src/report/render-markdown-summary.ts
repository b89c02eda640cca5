// `docsync once --format markdown`: a summary for a CI job's page (GitHub's step summary, a merge
// request note): the result, the change request, a dry run's table of the pages it would add, change
// and remove, a table of the broken links with their page, file and line in git, and the import's
// warnings. Every text from the docs or the service is shown in a
// code span, so a page title or an address cannot add markup.
import { linkPlace } from '../links/link-place.js';
import { codeSpan } from '../links/render-link-comment.js';
import { baseLabel, type ContentPreview, changeCounts, lineCounts } from '../preview/content-preview.js';
import { isFailure, type OnceResult } from './once-result.js';
import { pageLabel, sortedBrokenLinks, warningItems } from './report-items.js';

export function renderMarkdownSummary(result: OnceResult): string {
  const heading = `### docsync: ${cell(result.mapping)}`;
  if (isFailure(result))
    return `${[heading, '', `**failed** (${cell(result.failure.code)}): ${cell(result.failure.message)}`].join('\n')}\n`;
  const { report } = result;
  const lines = [heading, '', resultLine(result)];
  if (report.preview !== undefined) lines.push('', ...previewSection(report.preview));
  if (result.links !== undefined) {
    const broken = sortedBrokenLinks(result);
    lines.push('', `#### ${count(broken.length, 'broken link', 'broken links')}`);
    if (broken.length > 0)
      lines.push(
        '',
        '| Page | File and line in git | Link to |',
        '| --- | --- | --- |',
        ...broken.map(
          (link) => `| ${cell(pageLabel(link))} | ${cell(linkPlace(link))} | ${cell(link.target)} |`,
        ),
      );
    else
      lines.push(
        '',
        `Every link of the ${count(result.links.pages.length, 'page', 'pages')} checked resolves.`,
      );
  }
  const warnings = warningItems(result);
  if (warnings.length > 0)
    lines.push(
      '',
      `#### ${count(warnings.length, 'import warning', 'import warnings')}`,
      '',
      '| Where | Warning | Code |',
      '| --- | --- | --- |',
      ...warnings.map(
        (warning) =>
          `| ${cell(warning.line === undefined ? warning.file : `${warning.file}:${warning.line}`)} | ${cell(warning.message)} | ${cell(warning.code)} |`,
      ),
    );
  if (report.revision !== undefined) lines.push('', `Revision ${cell(report.revision)}.`);
  return `${lines.join('\n')}\n`;
}

function resultLine(result: Extract<OnceResult, { report: unknown }>): string {
  const { report } = result;
  const sha = report.sha === undefined ? '' : ` ${cell(report.sha.slice(0, 12))}`;
  const cr = report.changeRequest;
  if (cr === undefined) return `**${report.result}**${sha}`;
  return `**${report.result}**${sha} into ${linkTo(`change request #${cr.number}`, cr.url)}`;
}

/** The service's address of a change request: a link only when it is an http(s) address. */
function linkTo(text: string, url: string | undefined): string {
  return url !== undefined && /^https?:\/\//i.test(url)
    ? `[${text}](<${url.replace(/[<>\s]/g, encodeURIComponent)}>)`
    : text;
}

/** A code span that is also safe in a table cell: GFM splits cells at `|`, even inside code. */
function cell(text: string): string {
  return codeSpan(text).replace(/\|/g, '\\|');
}

/** The counts, then a table of the pages listed, each with its change and lines. */
function previewSection(preview: ContentPreview): string[] {
  const { against } = preview;
  const base =
    against.kind === 'change-request' ? linkTo(baseLabel(against), against.url) : baseLabel(against);
  const changed = preview.added + preview.changed + preview.removed;
  const lines = [
    `#### Dry run: ${count(changed, 'page', 'pages')} would change`,
    '',
    `Compared with ${base} (revision ${cell(against.revision)}): ${changeCounts(preview)}; lines ${lineCounts(preview)}${preview.approximate ? ' (at least)' : ''}.`,
  ];
  if (preview.pages.length > 0)
    lines.push(
      '',
      '| Page | Change | Lines |',
      '| --- | --- | --- |',
      ...preview.pages.map((page) => `| ${cell(page.path)} | ${page.change} | ${lineCounts(page)} |`),
    );
  if (preview.notListed > 0) lines.push('', `And ${count(preview.notListed, 'page', 'pages')} more.`);
  return lines;
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
