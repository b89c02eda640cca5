// The two warnings the status tests give a mapping's last import, as the import records them: a
// SUMMARY.md line whose file is not in the folder, and a page SUMMARY.md does not list.
import type { ContentWarning } from '../../src/content/content-warning.js';

export function sampleImportWarnings(missing = 'guides/old.md', line = 12): ContentWarning[] {
  return [
    {
      code: 'SUMMARY_MISSING_FILE',
      file: 'SUMMARY.md',
      line,
      message: `${missing} is not in the folder: the entry is skipped.`,
    },
    {
      code: 'PAGE_UNLISTED',
      file: 'drafts/notes.md',
      message: 'No SUMMARY.md entry lists this page: it is not imported.',
    },
  ];
}
