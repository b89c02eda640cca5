// A docs root without its readme imports with no first page of its own: the service opens whatever
// page comes first. Named in a warning, so the writer learns it from the import and not from readers.
import type { ContentWarning } from './content-warning.js';
import type { OutlineEntry } from './docs-outline.js';
import { GITBOOK_FILE, type GitbookLayout } from './gitbook-layout.js';

/**
 * README_MISSING when `outline` (readOutline's, which puts the readme first whenever the folder holds
 * it) has no page at `layout.readme`, naming the page the service opens instead: the first document
 * or placeholder in reading order (the summary's first entry, else the first page by path), groups
 * entered, links passed (a link opens another site); undefined when the readme is there.
 */
export function readmeMissingWarning(
  outline: readonly OutlineEntry[],
  layout: GitbookLayout,
  hasSummary: boolean,
): ContentWarning | undefined {
  const first = firstPage(outline);
  if (first?.kind === 'document' && first.path === layout.readme) return undefined;
  const fix = `add ${layout.readme}, or set structure.readme in ${GITBOOK_FILE} to the page to open first`;
  const opened =
    first === undefined
      ? 'the space has no page to open first'
      : `the service opens ${describe(first)}${hasSummary ? `, the first entry of ${layout.summary},` : ', the first page by path,'} first`;
  return {
    code: 'README_MISSING',
    file: layout.readme,
    message: `the docs root has no ${layout.readme}: ${opened}; ${fix}`,
  };
}

type OpenablePage = Extract<OutlineEntry, { kind: 'document' | 'placeholder' }>;

function firstPage(pages: readonly OutlineEntry[]): OpenablePage | undefined {
  for (const page of pages) {
    if (page.kind === 'document' || page.kind === 'placeholder') return page;
    if (page.kind === 'group') {
      const inGroup = firstPage(page.pages);
      if (inGroup !== undefined) return inGroup;
    }
  }
  return undefined;
}

function describe(page: OpenablePage): string {
  return page.kind === 'document' ? page.path : `the empty page "${page.title}" (line ${page.line})`;
}
