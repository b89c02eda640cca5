// The link tables of `docsync status`: every broken link with where it is (change request or main
// content), its page, where it is written in git (file:line, or why that is not known) and what it
// points to; and the last link check of each target. Pure.
import { linkPlace } from '../links/link-place.js';
import { linkTargetName } from '../status/attention.js';
import type { MappingStatusAnswer } from '../status/status-answer-schema.js';
import { NONE } from './status-lines.js';
import { type Cell, type Column, formatTable, type Paint } from './text-table.js';

/** Broken links listed per target; `--json` lists more, and counts them all. */
export const SHOWN_BROKEN_LINKS = 20;

export function brokenLinkTable(mappings: readonly MappingStatusAnswer[], paint: Paint): string[] {
  const more: string[] = [];
  const rows = mappings.flatMap((mapping) =>
    mapping.linkChecks.flatMap((check) => {
      if (check.broken === 0) return [];
      const target = linkTargetName(check, mapping.name);
      const shown = check.links.slice(0, SHOWN_BROKEN_LINKS);
      if (check.broken > shown.length)
        more.push(paint('dim', `… ${check.broken - shown.length} more in ${target}`));
      return shown.map((link): Cell[] => [
        target,
        link.pagePath ?? link.pageTitle,
        { text: linkPlace(link), style: link.line === undefined ? 'yellow' : undefined },
        link.target,
      ]);
    }),
  );
  return [
    ...titled('Broken links', 'none', paint, rows, [
      { header: 'WHERE' },
      { header: 'PAGE' },
      { header: 'FILE IN GIT' },
      { header: 'LINK TO' },
    ]),
    ...more,
  ];
}

export function linkCheckTable(
  mappings: readonly MappingStatusAnswer[],
  paint: Paint,
  at: (iso: string) => string,
): string[] {
  const rows = mappings.flatMap((mapping) =>
    mapping.linkChecks.map((check): Cell[] => [
      mapping.name,
      check.target === 'main' ? 'main' : check.number === undefined ? check.target : `#${check.number}`,
      check.revision,
      { text: String(check.broken), style: check.broken > 0 ? 'yellow' : undefined },
      check.total === undefined ? NONE : String(check.total),
      at(check.at),
    ]),
  );
  return titled('Link checks', 'none recorded', paint, rows, [
    { header: 'MAPPING' },
    { header: 'TARGET' },
    { header: 'REVISION' },
    { header: 'BROKEN', align: 'right' },
    { header: 'LINKS', align: 'right' },
    { header: 'WHEN' },
  ]);
}

/** A titled table, or the title and `none` when it has no rows. */
function titled(title: string, none: string, paint: Paint, rows: Cell[][], columns: Column[]): string[] {
  if (rows.length === 0) return [`${paint('bold', title)}: ${none}`];
  return [paint('bold', title), ...formatTable(columns, rows, paint)];
}
