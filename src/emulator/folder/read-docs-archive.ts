// An import archive read as the service's git sync reads a docs folder: the archive's files, the
// `.gitbook.yaml` at its top choosing the docs root, readme and summary, tool files (names starting
// with a dot, `.gitbook/` folders excepted) left out, and the page tree of what remains.

import { buildPageTree, type FolderWarning } from './build-page-tree.js';
import { type ContentTree, countTreeDocuments } from './content-tree.js';
import { GITBOOK_CONFIG_FILE, readGitbookConfig } from './gitbook-config.js';
import { ImportRefusedError } from './import-refused-error.js';
import { type ArchiveLimits, readArchive } from './read-archive.js';

export interface DocsArchive {
  tree: ContentTree;
  warnings: FolderWarning[];
  /** Files of the archive present but not imported: tool files, files outside the root, unlisted pages. */
  skipped: number;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Reads `archive`; refuses it (ImportRefusedError) as readArchive, readGitbookConfig and buildPageTree do. */
export async function readDocsArchive(archive: Buffer, limits: ArchiveLimits): Promise<DocsArchive> {
  const entries = await readArchive(archive, limits);
  const config = readGitbookConfig(configText(entries.get(GITBOOK_CONFIG_FILE)));
  const prefix = config.root === '' ? '' : `${config.root}/`;
  const files = new Map<string, Buffer>();
  for (const [path, data] of entries) {
    if (!path.startsWith(prefix)) continue;
    const inRoot = path.slice(prefix.length);
    if (!isToolFile(inRoot)) files.set(inRoot, data);
  }
  const { tree, warnings, hasSummary } = buildPageTree(files, config);
  const read = countTreeDocuments(tree.pages) + tree.files.length + (hasSummary ? 1 : 0);
  return { tree, warnings, skipped: entries.size - read };
}

function configText(data: Buffer | undefined): string | undefined {
  if (data === undefined) return undefined;
  try {
    return utf8.decode(data);
  } catch (error) {
    throw new ImportRefusedError(
      'CONTENT_INVALID',
      `${GITBOOK_CONFIG_FILE} is not UTF-8 text: save it as UTF-8`,
      {
        path: GITBOOK_CONFIG_FILE,
        cause: error,
      },
    );
  }
}

/** A name starting with a dot on the path (`.DS_Store`, `.github/…`), but for `.gitbook/` folders. */
function isToolFile(path: string): boolean {
  if (!path.startsWith('.') && !path.includes('/.')) return false;
  const names = path.split('/');
  return names.some(
    (name, index) => name.startsWith('.') && !(name === '.gitbook' && index < names.length - 1),
  );
}
