// `docsync once --format json` (and `--json`): the import's report (a dry run's `preview` of the
// pages it would add, change and remove included) and the broken links, each with its file, line and
// column in git, or `lineUnknown` saying why there is none. One JSON line.
import { unknownLineReason } from '../links/link-place.js';
import { isFailure, type OnceResult } from './once-result.js';
import { sortedBrokenLinks } from './report-items.js';

export function renderJsonReport(result: OnceResult): string {
  if (isFailure(result))
    return `${JSON.stringify({ mapping: result.mapping, result: 'failed', error: result.failure })}\n`;
  const brokenLinks = sortedBrokenLinks(result).map((link) => {
    const reason = unknownLineReason(link);
    return reason === undefined ? link : { ...link, lineUnknown: reason };
  });
  return `${JSON.stringify({
    mapping: result.mapping,
    ...result.report,
    brokenLinks,
    ...(result.links === undefined ? {} : { checkedPages: result.links.pages.length }),
  })}\n`;
}
