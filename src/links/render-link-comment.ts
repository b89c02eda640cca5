// The markdown of docsync's broken-links comment on a change request: a hidden marker on the first
// line (how the next check finds the comment again), then the links grouped by page in a stable
// order, so that the same links always give the same text and an unchanged list is never re-edited.
import type { BrokenLink } from '../import/change-request-links.js';

/** The first line of docsync's link comment; invisible in rendered markdown. */
export const LINK_COMMENT_MARKER = '<!-- docsync:broken-links -->';

/** Past this many links the comment names how many more there are rather than growing without end. */
export const LINK_COMMENT_MAX_LISTED = 200;

const FOOTER = '_docsync edits this comment when the list changes and resolves it once every link is fixed._';

/** Whether a comment's markdown is docsync's link comment: the marker alone on its first line. */
export function isLinkCommentMarkdown(markdown: string): boolean {
  const firstLine = markdown.split('\n', 1)[0] ?? '';
  return firstLine.trim() === LINK_COMMENT_MARKER;
}

export function renderLinkComment(broken: readonly BrokenLink[]): string {
  const byPage = groupByPage(broken);
  const count = [...byPage.values()].reduce((sum, targets) => sum + targets.length, 0);
  if (count === 0)
    return [LINK_COMMENT_MARKER, '### No broken links', '', 'Every link listed here before is fixed.'].join(
      '\n',
    );

  const lines = [
    LINK_COMMENT_MARKER,
    `### ${count} broken ${count === 1 ? 'link' : 'links'}`,
    '',
    'Pages of this change request that link to something that does not exist:',
    '',
  ];
  let listed = 0;
  for (const [page, targets] of byPage) {
    if (listed >= LINK_COMMENT_MAX_LISTED) break;
    lines.push(`- ${codeSpan(page)}`);
    for (const target of targets) {
      if (listed >= LINK_COMMENT_MAX_LISTED) break;
      lines.push(`  - ${codeSpan(target)}`);
      listed += 1;
    }
  }
  if (listed < count) lines.push('', `…and ${count - listed} more.`);
  lines.push('', FOOTER);
  return lines.join('\n');
}

/** Page label (path, else title) to its distinct targets, both sorted by code unit, not locale. */
function groupByPage(broken: readonly BrokenLink[]): Map<string, string[]> {
  const targets = new Map<string, Set<string>>();
  for (const link of broken) {
    const page = link.pagePath ?? link.pageTitle;
    const set = targets.get(page) ?? new Set<string>();
    set.add(link.target);
    targets.set(page, set);
  }
  return new Map(
    [...targets.keys()].sort(compare).map((page) => [page, [...(targets.get(page) ?? [])].sort(compare)]),
  );
}

function compare(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/**
 * A markdown code span that shows `text` literally: a fence longer than any backtick run inside
 * it, so a page title or address cannot close the span, inject markup or forge the marker.
 */
export function codeSpan(text: string): string {
  const flat = text.replace(/[\r\n]+/g, ' ');
  const longestRun = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}
