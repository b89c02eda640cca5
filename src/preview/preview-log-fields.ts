// The fields of a dry-run import's one log line: the counts, what was compared, and the first pages
// by path, each with its sign (`+guides/new`, `~install`, `-old`): enough to grep, bounded in size.
import { type ContentPreview, changeSign } from './content-preview.js';

/** Paths in one log line; the counts give the rest. */
export const LOGGED_PATHS = 20;

export function previewLogFields(preview: ContentPreview): Record<string, unknown> {
  const { against } = preview;
  return {
    against: against.kind,
    ...(against.kind === 'change-request' ? { cr: against.id, number: against.number } : {}),
    comparedRevision: against.revision,
    added: preview.added,
    changed: preview.changed,
    removed: preview.removed,
    unchanged: preview.unchanged,
    linesAdded: preview.linesAdded,
    linesRemoved: preview.linesRemoved,
    ...(preview.approximate ? { approximate: true } : {}),
    firstPaths: preview.pages.slice(0, LOGGED_PATHS).map((page) => `${changeSign(page.change)}${page.path}`),
  };
}
