// The link sections of the status page: every broken link with its page, where it is written in
// git (file:line) and what it points to, and the last link check of each target. Pure.
import { linkPlace } from '../links/link-place.js';
import { linkTargetName } from './attention.js';
import { html, SafeHtml } from './html.js';
import { type At, row, section, styled, table } from './page-markup.js';
import { isPartError, type StatusAnswer } from './status-answer-schema.js';

/** Broken links listed per target; /status lists more, and counts them all. */
export const PAGE_BROKEN_LINKS = 20;

export function brokenLinkSection(part: StatusAnswer['mappings']): SafeHtml {
  if (isPartError(part)) return new SafeHtml('');
  const rows = part.flatMap((mapping) =>
    mapping.linkChecks.flatMap((check) => {
      if (check.broken === 0) return [];
      const target = linkTargetName(check, mapping.name);
      const shown = check.links.slice(0, PAGE_BROKEN_LINKS);
      const hidden = check.broken - shown.length;
      return [
        ...shown.map((link) =>
          row(
            target,
            html`${link.pageTitle}${link.pagePath === undefined ? '' : html` ${styled('dim', link.pagePath)}`}`,
            link.line === undefined ? styled('warn', linkPlace(link)) : html`<code>${linkPlace(link)}</code>`,
            html`<code>${link.target}</code>`,
          ),
        ),
        ...(hidden > 0 ? [row(target, undefined, styled('dim', `and ${hidden} more`))] : []),
      ];
    }),
  );
  return section(
    'broken-links',
    'Broken links',
    rows.length === 0
      ? html`<p>None in the last link checks.</p>`
      : table(['Where', 'Page', 'File in git', 'Link to'], rows),
  );
}

export function linkCheckSection(part: StatusAnswer['mappings'], at: At): SafeHtml {
  if (isPartError(part)) return new SafeHtml('');
  const rows = part.flatMap((mapping) =>
    mapping.linkChecks.map((check) =>
      row(
        mapping.name,
        check.target === 'main'
          ? 'main content'
          : check.number === undefined
            ? check.target
            : `change request #${check.number}`,
        html`<code>${check.revision}</code>`,
        check.broken > 0
          ? html`<a class="warn" href="#broken-links">${check.broken} broken</a>`
          : styled('ok', 'no broken link'),
        check.total === undefined ? undefined : String(check.total),
        at(check.at),
      ),
    ),
  );
  return section(
    'link-checks',
    'Link checks',
    rows.length === 0
      ? html`<p>None recorded yet.</p>`
      : table(['Mapping', 'Target', 'Revision', 'Result', 'Links', 'When'], rows),
  );
}
