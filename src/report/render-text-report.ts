// `docsync once` for people: the result, the change request, a dry run's pages added, changed and
// removed, the docs folder's warnings and the broken links, one per line with where each is written
// in git.
import { warningLocation } from '../content/content-warning.js';
import { linkPlace } from '../links/link-place.js';
import {
  baseLabel,
  type ContentPreview,
  changeCounts,
  lineCounts,
  pageLines,
} from '../preview/content-preview.js';
import { isFailure, type OnceResult } from './once-result.js';
import { pageLabel, sortedBrokenLinks } from './report-items.js';

export function renderTextReport(result: OnceResult): string {
  if (isFailure(result)) return `${result.mapping}: failed: ${result.failure.message}\n`;
  const { report } = result;
  const lines = [
    `${result.mapping}: ${report.result}${report.sha === undefined ? '' : ` ${report.sha.slice(0, 12)}`}`,
  ];
  if (report.changeRequest !== undefined)
    lines.push(
      `change request #${report.changeRequest.number}${report.changeRequest.url === undefined ? '' : ` ${report.changeRequest.url}`}`,
    );
  if (report.revision !== undefined) lines.push(`revision ${report.revision}`);
  const warnings = report.warnings ?? [];
  if (warnings.length > 0)
    lines.push(
      `warnings: ${warnings.length}`,
      ...warnings.map((warning) => `  ${warningLocation(warning)}: ${warning.message} (${warning.code})`),
    );
  if (report.preview !== undefined) lines.push(...previewLines(report.preview));
  if (result.links !== undefined) {
    const broken = sortedBrokenLinks(result);
    lines.push(
      `broken links: ${broken.length}`,
      ...broken.map((link) => `  ${pageLabel(link)}: ${link.target} (${linkPlace(link)})`),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** `compared with change request #4 (revision r)`, the counts, then one page a line: `  ~ install +3 -1`. */
function previewLines(preview: ContentPreview): string[] {
  return [
    `compared with ${baseLabel(preview.against)}, revision ${preview.against.revision}`,
    `pages: ${changeCounts(preview)}; lines ${lineCounts(preview)}${preview.approximate ? ' (at least)' : ''}`,
    ...pageLines(preview).map((line) => `  ${line}`),
  ];
}
