// Content import: fetch the address, read it as the given source, and make it the new content of a
// space or change request as one new revision. A zip is a docs folder read as the service's git sync
// reads one (docs/folder-format.md, unlisted pages left out; the reading is src/emulator/folder/):
// the readme first, SUMMARY.md order, nesting, groups, links and entries without a file; other files
// as files. Markdown is one page, added to what is there. A bad archive or address is a 400 and
// changes nothing; a folder's lines that can be read past are (the service answers no warnings).
import type { ImportSource } from '../api/schemas/service-enums.js';
import type { EmulatorContext } from './emulator-context.js';
import { badRequest } from './emulator-http-error.js';
import type { StoredPage, StoredRevision } from './emulator-state.js';
import { fetchSource } from './fetch-source.js';
import type { ContentTree } from './folder/content-tree.js';
import { ImportRefusedError } from './folder/import-refused-error.js';
import { ARCHIVE_LIMITS } from './folder/read-archive.js';
import { readDocsArchive } from './folder/read-docs-archive.js';
import { newId } from './ids.js';
import { createRevision } from './revisions.js';
import { flattenPages, treeToStored } from './stored-content.js';

export interface ImportResult {
  revision: StoredRevision;
  importedResources: number;
  totalResources: number;
}

/** What was fetched and read, before anything changes: a whole folder, or one page to add. */
export type PreparedImport =
  /** `skipped`: files of the archive that are present but not imported (metadata, unlisted pages). */
  | { kind: 'folder'; tree: ContentTree; skipped: number }
  | { kind: 'page'; title: string; slug: string; markdown: string };

/** Warnings named in the log line of one import; the count gives the rest. */
const LOGGED_WARNINGS = 20;

/**
 * Fetches and reads the source: everything that can wait or fail. It changes nothing, so the
 * caller can check its target again afterwards and apply the result without awaiting in between.
 */
export async function prepareImport(
  ctx: EmulatorContext,
  url: string,
  source: ImportSource,
): Promise<PreparedImport> {
  if (source !== 'zip' && source !== 'markdown') {
    throw badRequest(
      `source ${source} is not supported by the local service: import a zip of a docs folder, or markdown`,
    );
  }
  const fetched = await fetchSource(url, ctx.limits);
  if (!fetched.ok) throw badRequest(`the import address could not be read: ${fetched.reason}`);
  try {
    if (source === 'markdown') {
      const markdown = new TextDecoder('utf-8', { fatal: false }).decode(fetched.bytes);
      const title = /^#\s+(.+)$/m.exec(markdown)?.[1]?.trim() ?? 'Imported page';
      const slug =
        title
          .toLowerCase()
          .replace(/[^\p{L}\p{N}]+/gu, '-')
          .replace(/^-|-$/g, '') || 'imported-page';
      return { kind: 'page', title, slug, markdown };
    }
    const { tree, warnings, skipped } = await readDocsArchive(fetched.bytes, {
      ...ARCHIVE_LIMITS,
      maxTotalBytes: ctx.limits.fetchMaxBytes,
    });
    if (warnings.length > 0) {
      // The service's answer has no room for them: the log is where a docs team running it sees them.
      ctx.log.info(
        {
          warningCount: warnings.length,
          warnings: warnings.slice(0, LOGGED_WARNINGS).map((warning) => ({
            code: warning.code,
            at: warning.line === undefined ? warning.file : `${warning.file}:${warning.line}`,
          })),
        },
        'import read past problems of the folder',
      );
    }
    return { kind: 'folder', tree, skipped };
  } catch (error) {
    if (error instanceof ImportRefusedError) throw badRequest(`the import was refused: ${error.message}`);
    throw error;
  }
}

/** Makes the prepared content a new revision on top of `current`. Synchronous on purpose. */
export function applyImport(
  ctx: EmulatorContext,
  current: StoredRevision,
  prepared: PreparedImport,
): ImportResult {
  const now = ctx.now().toISOString();
  if (prepared.kind === 'folder') {
    const stored = treeToStored(prepared.tree, current, now);
    const revision = createRevision(ctx, { parents: [current.id], ...stored });
    // Every page (groups and links too) and file is a resource; metadata files and markdown pages
    // the summary leaves out are present in the archive but not imported.
    const resources = flattenPages(stored.pages).length + stored.files.length;
    return { revision, importedResources: resources, totalResources: resources + prepared.skipped };
  }
  const taken = new Set(flattenPages(current.pages).flatMap((page) => page.sourcePath ?? []));
  let sourcePath = `${prepared.slug}.md`;
  for (let n = 2; taken.has(sourcePath); n += 1) sourcePath = `${prepared.slug}-${n}.md`;
  const page: StoredPage = {
    id: newId('pg_'),
    type: 'document',
    title: prepared.title,
    slug: prepared.slug,
    sourcePath,
    markdown: prepared.markdown,
    createdAt: now,
    updatedAt: now,
    pages: [],
  };
  const revision = createRevision(ctx, {
    parents: [current.id],
    pages: [...current.pages, page],
    files: current.files,
  });
  return { revision, importedResources: 1, totalResources: 1 };
}
