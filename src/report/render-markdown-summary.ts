// `docsync once --format markdown`: a summary for a CI job's page (GitHub's step summary, a merge
// request note): the result, the change request, a table of the broken links with their page, file
// and line in git, and the import's warnings. Every text from the docs or the service is shown in a
// code span, so a page title or an address cannot add markup.
import { linkPlace } from '../links/link-place.js';
import { codeSpan } from '../links/render-link-comment.js';
import { isFailure, type OnceResult } from './once-result.js';
import { pageLabel, sortedBrokenLinks, warningItems } from './report-items.js';

export function renderMarkdownSummary(result: OnceResult): string {
  const heading = `### docsync: ${cell(result.mapping)}`;
  if (isFailure(result))
    return `${[heading, '', `**failed** (${cell(result.failure.code)}): ${cell(result.failure.message)}`].join('\n')}\n`;
  const { report } = result;
  const lines = [heading, '', resultLine(result)];
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
  // The service's address of the change request: a link only when it is an http(s) address.
  const named = `change request #${cr.number}`;
  const link =
    cr.url !== undefined && /^https?:\/\//i.test(cr.url)
      ? `[${named}](<${cr.url.replace(/[<>\s]/g, encodeURIComponent)}>)`
      : named;
  return `**${report.result}**${sha} into ${link}`;
}

/** A code span that is also safe in a table cell: GFM splits cells at `|`, even inside code. */
function cell(text: string): string {
  return codeSpan(text).replace(/\|/g, '\\|');
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
