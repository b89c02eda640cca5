// The markdown of docsync's comment on a change request: a hidden marker on the first line (how the
// next check finds the comment again), then the broken links grouped by page in a stable order, and
// the warnings of the import that made the revision (what it read past in the folder), so that the
// same findings always give the same text and an unchanged comment is never re-edited.
import { warningLocation } from '../content/content-warning.js';
import type { BrokenLink } from './broken-link.js';
import type { ImportWarnings } from './import-warnings-for.js';
import { linkPlace } from './link-place.js';

/** The first line of docsync's link comment; invisible in rendered markdown. */
export const LINK_COMMENT_MARKER = '<!-- docsync:broken-links -->';

/** Past this many links the comment names how many more there are rather than growing without end. */
export const LINK_COMMENT_MAX_LISTED = 200;

/** Warnings listed at most: as many as the state keeps of an import. */
export const LINK_COMMENT_MAX_WARNINGS = 50;

/** A warning's message is one sentence; one longer than this is cut. */
const WARNING_MESSAGE_CHARS = 300;

// The footer of a comment with broken links only is the text comments had before import warnings
// existed: such comments are not edited just for a new footer.
const LINKS_FOOTER =
  '_docsync edits this comment when the list changes and resolves it once every link is fixed._';
const FOOTER =
  '_docsync edits this comment when these lists change and resolves it once every link is fixed and an import reads the folder without warnings._';

/** What the comment reports on the change request's current revision. */
export interface LinkCommentFindings {
  broken: readonly BrokenLink[];
  /** Those of the import that made the revision; none when docsync's import did not make it. */
  warnings: ImportWarnings;
}

/** Whether a comment's markdown is docsync's link comment: the marker alone on its first line. */
export function isLinkCommentMarkdown(markdown: string): boolean {
  const firstLine = markdown.split('\n', 1)[0] ?? '';
  return firstLine.trim() === LINK_COMMENT_MARKER;
}

/** Whether the findings leave anything to fix: the comment is resolved when they do not. */
export function hasFindings(findings: LinkCommentFindings): boolean {
  return findings.broken.length > 0 || findings.warnings.count > 0;
}

export function renderLinkComment(findings: LinkCommentFindings): string {
  const links = brokenLinkLines(findings.broken);
  const warnings = warningLines(findings.warnings);
  if (links.length === 0 && warnings.length === 0)
    return [LINK_COMMENT_MARKER, '### Nothing to fix', '', 'No broken links, and no import warnings.'].join(
      '\n',
    );
  return [
    LINK_COMMENT_MARKER,
    ...links,
    ...(links.length > 0 && warnings.length > 0 ? [''] : []),
    ...warnings,
    '',
    warnings.length === 0 ? LINKS_FOOTER : FOOTER,
  ].join('\n');
}

function brokenLinkLines(broken: readonly BrokenLink[]): string[] {
  const byPage = groupByPage(broken);
  const count = [...byPage.values()].reduce((sum, targets) => sum + targets.length, 0);
  const items: string[] = [];
  let listed = 0;
  for (const [page, targets] of byPage) {
    if (listed >= LINK_COMMENT_MAX_LISTED) break;
    items.push(`- ${codeSpan(page)}`);
    for (const target of targets) {
      if (listed >= LINK_COMMENT_MAX_LISTED) break;
      items.push(`  - ${target}`);
      listed += 1;
    }
  }
  return section(
    count,
    ['broken link', 'broken links'],
    'Pages of this change request that link to something that does not exist:',
    items,
    listed,
  );
}

/** The import's own order: the summary's lines from the top, then whole files. */
function warningLines(warnings: ImportWarnings): string[] {
  const listed = warnings.listed.slice(0, LINK_COMMENT_MAX_WARNINGS);
  return section(
    Math.max(warnings.count, warnings.listed.length),
    ['import warning', 'import warnings'],
    'What docsync read past in the folder when it imported this change request; fix it in git and the next import updates this list:',
    listed.map((warning) => `- ${codeSpan(warningLocation(warning))}: ${markdownText(warning.message)}`),
    listed.length,
  );
}

/**
 * A heading with the count (`### 2 broken links`), what the list is, its first items, and how many
 * of the `count` are not listed; nothing when there are none.
 */
function section(
  count: number,
  [one, many]: readonly [string, string],
  intro: string,
  items: readonly string[],
  listed: number,
): string[] {
  if (count === 0) return [];
  return [
    `### ${count} ${count === 1 ? one : many}`,
    '',
    intro,
    '',
    ...items,
    ...(listed < count ? ['', `…and ${count - listed} more.`] : []),
  ];
}

/**
 * Page label (path, else title) to its distinct list items, each a target and where it is written:
 * pages sorted by code unit, not locale; items by target, then line.
 */
function groupByPage(broken: readonly BrokenLink[]): Map<string, string[]> {
  const items = new Map<string, Map<string, { target: string; line: number }>>();
  for (const link of broken) {
    const page = link.pagePath ?? link.pageTitle;
    const listed = items.get(page) ?? new Map<string, { target: string; line: number }>();
    listed.set(`${codeSpan(link.target)}${placeText(link)}`, { target: link.target, line: link.line ?? 0 });
    items.set(page, listed);
  }
  return new Map(
    [...items.keys()].sort(compare).map((page) => {
      const listed = [...(items.get(page) ?? new Map()).entries()];
      listed.sort(
        ([textA, a], [textB, b]) => compare(a.target, b.target) || a.line - b.line || compare(textA, textB),
      );
      return [page, listed.map(([text]) => text)];
    }),
  );
}

/**
 * Where the link is written: ` at \`docs/a.md:3:5\``, or in words why no line is known. Nothing for a
 * record that names no file either way (one stored before docsync placed links, the main content's).
 */
function placeText(link: BrokenLink): string {
  if (link.line !== undefined) return ` at ${codeSpan(linkPlace(link))}`;
  if (link.sourcePath === undefined && link.noGitFile !== true) return '';
  return ` (${markdownText(linkPlace(link))})`;
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

// Every character that can start markup inline: emphasis, code, links, images, HTML and entities,
// tables, strikethrough, maths and template blocks (`{% hint %}`).
const MARKDOWN_PUNCTUATION = /[\\`*_[\]<>&!|~$#{}]/g;

/**
 * Text on one line that renders as itself: a warning names files from git, and a file name must
 * not become a link, an image or HTML in the service's comment.
 */
export function markdownText(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const cut = flat.length > WARNING_MESSAGE_CHARS ? `${flat.slice(0, WARNING_MESSAGE_CHARS - 1)}…` : flat;
  return cut.replace(MARKDOWN_PUNCTUATION, '\\$&');
}
