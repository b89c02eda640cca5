// What needs a person, for the headline of the status page and of `docsync status`: every health
// problem (a mapping or spec failing, degraded, paused, or a part that could not be read) and every
// link check with broken links, each named in a few words for the headline and in one sentence for
// the list under it. Pure: the /status answer and the clock come in.
import { headline, PROBLEM_STYLE, problemText } from './problem-text.js';
import { isPartError, type MappingStatusAnswer, type StatusAnswer } from './status-answer-schema.js';

export interface AttentionItem {
  /** A few words for the headline: `mapping docs`, `change request #2 (docs)`. */
  name: string;
  /** One sentence: what and why. */
  text: string;
  /** What to check, when known. */
  hint?: string | undefined;
  style: 'bad' | 'warn';
  /** Where the page lists the details, for a link from the item. */
  anchor?: string | undefined;
}

export interface Attention {
  /** `all in sync (1 mapping, 1 spec)`, or `2 need attention: mapping lost, change request #2 (docs)`. */
  headline: string;
  items: AttentionItem[];
}

/** The headline and its items; undefined for a daemon older than health states (no summary). */
export function attentionOf(status: StatusAnswer, now: Date): Attention | undefined {
  const { summary } = status;
  if (summary === undefined) return undefined;
  const items: AttentionItem[] = [
    ...summary.problems.map(
      (problem): AttentionItem => ({
        name:
          problem.kind === 'status' ? `the ${problem.name} of the status` : `${problem.kind} ${problem.name}`,
        text: problemText(problem, now),
        hint: problem.hint,
        style: PROBLEM_STYLE[problem.state] ?? 'warn',
      }),
    ),
    ...(isPartError(status.mappings) ? [] : status.mappings.flatMap(brokenLinkItems)),
  ];
  if (items.length === 0) return { headline: headline(summary), items };
  return {
    headline: `${items.length} need${items.length === 1 ? 's' : ''} attention: ${items.map((item) => item.name).join(', ')}`,
    items,
  };
}

/** One item per link check of the mapping with broken links. */
function brokenLinkItems(mapping: MappingStatusAnswer): AttentionItem[] {
  return mapping.linkChecks.flatMap((check) => {
    if (check.broken === 0) return [];
    const target = linkTargetName(check, mapping.name);
    const links = `${check.broken} broken link${check.broken === 1 ? '' : 's'}`;
    return [
      {
        name: target,
        text: `${target} has ${links}`,
        hint: 'fix each link where the broken links list shows it, and push',
        style: 'warn' as const,
        anchor: 'broken-links',
      },
    ];
  });
}

/** `change request #2 (docs)`, or `the main content of docs`. */
export function linkTargetName(
  check: { target: string; number?: number | undefined },
  mapping: string,
): string {
  if (check.target === 'main') return `the main content of ${mapping}`;
  return `change request ${check.number === undefined ? check.target : `#${check.number}`} (${mapping})`;
}
