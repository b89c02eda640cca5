// Small docs folders shaped like those a docs team keeps in git beside the service's git sync, each
// one corner of docs/folder-format.md (outline-corpus.ts, link-corpus.ts), and seeded folders of the
// round-trip generator. The differential test reads each twice (docsync's prediction and the local
// service's import) and compares; nothing here states the expected result.
import { treeToFolder } from '../../../src/content/tree-to-folder.js';
import { randomTree } from '../../support/random-docs.js';
import type { CorpusFolder } from './corpus-folder.js';
import { LINK_FOLDERS } from './link-corpus.js';
import { OUTLINE_FOLDERS } from './outline-corpus.js';

export type { CorpusFolder } from './corpus-folder.js';

export const FOLDER_FORMAT_CORPUS: readonly CorpusFolder[] = [
  ...OUTLINE_FOLDERS,
  ...LINK_FOLDERS,
  // Seeded folders of the round-trip tests (random-docs.ts) written as docsync exports them: names
  // with spaces, parentheses, `#`, `%` and letters outside ASCII, groups, links and placeholders.
  // The seeds are those with the most files and kinds among the first 400.
  ...[116, 143, 59].map(
    (seed): CorpusFolder => ({
      name: `generated-${seed}`,
      hasBrokenLinks: undefined,
      files: Object.fromEntries(treeToFolder(randomTree(seed))),
    }),
  ),
];
