// `docsync once --format github`: workflow commands that GitHub Actions turns into annotations on the
// pull request's files: an `::error` per broken link at its file and line, a `::warning` per import
// warning, a `::notice` with a dry run's counts, then its pages and the result in plain lines for
// the job's log.
import { linkPlace } from '../links/link-place.js';
import {
  baseLabel,
  type ContentPreview,
  changeCounts,
  lineCounts,
  pageLines,
} from '../preview/content-preview.js';
import { isFailure, type OnceResult } from './once-result.js';
import { brokenLinkMessage, sortedBrokenLinks, warningItems } from './report-items.js';

export function renderGithubAnnotations(result: OnceResult): string {
  if (isFailure(result))
    return `${command('error', { title: `docsync once: ${result.mapping}` }, result.failure.message)}\n`;
  const lines: string[] = [];
  for (const link of sortedBrokenLinks(result)) {
    const known = link.file !== undefined && link.line !== undefined;
    lines.push(
      command(
        'error',
        {
          title: 'Broken link',
          ...(link.file === undefined ? {} : { file: link.file }),
          ...(link.line === undefined ? {} : { line: String(link.line) }),
          ...(link.column === undefined ? {} : { col: String(link.column) }),
        },
        // Without a line, the annotation sits on the file or the run: the text says why.
        known ? brokenLinkMessage(link) : `${brokenLinkMessage(link)} (${linkPlace(link)})`,
      ),
    );
  }
  for (const warning of warningItems(result))
    lines.push(
      command(
        'warning',
        {
          title: `Import warning ${warning.code}`,
          file: warning.file,
          ...(warning.line === undefined ? {} : { line: String(warning.line) }),
        },
        warning.message,
      ),
    );
  const { report } = result;
  if (report.preview !== undefined) lines.push(...previewNotice(report.preview));
  lines.push(
    `${result.mapping}: ${report.result}${report.sha === undefined ? '' : ` ${report.sha.slice(0, 12)}`}`,
    ...(report.changeRequest?.url === undefined
      ? []
      : [`change request #${report.changeRequest.number} ${report.changeRequest.url}`]),
    ...(result.links === undefined ? [] : [`broken links: ${result.links.broken.length}`]),
  );
  return `${lines.join('\n')}\n`;
}

/** A dry run: one notice with the counts, then the pages listed in plain lines for the job's log. */
function previewNotice(preview: ContentPreview): string[] {
  return [
    command(
      'notice',
      { title: 'docsync dry run' },
      `against ${baseLabel(preview.against)}: ${changeCounts(preview)}; lines ${lineCounts(preview)}`,
    ),
    ...pageLines(preview),
  ];
}

/** `::error file=a.md,line=3::text`, with the escapes the runner undoes: a value cannot break the command. */
export function command(
  name: 'error' | 'warning' | 'notice',
  properties: Record<string, string>,
  message: string,
): string {
  const props = Object.entries(properties)
    .map(([key, value]) => `${key}=${escapeProperty(value)}`)
    .join(',');
  return `::${name}${props === '' ? '' : ` ${props}`}::${escapeData(message)}`;
}

function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
