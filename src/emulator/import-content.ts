// Content import: fetch the address, read it as the given source, and make it the new content of a
// space or change request as one new revision. A zip is a docs folder (README.md first page,
// SUMMARY.md order and nesting, other .md pages, other files as files); markdown is one page, added
// to what is there. A bad archive or address is a 400 and changes nothing.
import { posix } from 'node:path';
import type { ImportSource } from '../api/schemas/service-enums.js';
import { ContentError } from '../content/content-error.js';
import { folderToTree } from '../content/folder-to-tree.js';
import { readZip } from '../content/read-zip.js';
import type { EmulatorContext } from './emulator-context.js';
import { badRequest } from './emulator-http-error.js';
import type { StoredPage, StoredRevision } from './emulator-state.js';
import { fetchSource } from './fetch-source.js';
import { newId } from './ids.js';
import { createRevision } from './revisions.js';
import { flattenPages, treeToStored } from './stored-content.js';

export interface ImportResult {
  revision: StoredRevision;
  importedResources: number;
  totalResources: number;
}

/** Names in an archive that are not content: tool metadata such as .DS_Store or .gitkeep. */
const NOT_CONTENT = /(^|\/)\.(?!gitbook\/)[^/]*$/;

export async function importContent(
  ctx: EmulatorContext,
  current: StoredRevision,
  url: string,
  source: ImportSource,
): Promise<ImportResult> {
  if (source !== 'zip' && source !== 'markdown') {
    throw badRequest(
      `source ${source} is not supported by the local service: import a zip of a docs folder, or markdown`,
    );
  }
  const fetched = await fetchSource(url, ctx.limits);
  if (!fetched.ok) throw badRequest(`the import address could not be read: ${fetched.reason}`);
  try {
    return source === 'zip'
      ? await importZip(ctx, current, fetched.bytes)
      : importMarkdown(ctx, current, fetched.bytes);
  } catch (error) {
    if (error instanceof ContentError) throw badRequest(`the import was refused: ${error.message}`);
    throw error;
  }
}

async function importZip(
  ctx: EmulatorContext,
  current: StoredRevision,
  archive: Buffer,
): Promise<ImportResult> {
  const entries = await readZip(archive, { maxTotalBytes: ctx.limits.fetchMaxBytes });
  const content = new Map([...entries].filter(([path]) => !NOT_CONTENT.test(path)));
  const tree = folderToTree(content);
  const stored = treeToStored(tree, current, ctx.now().toISOString());
  const revision = createRevision(ctx, { parents: [current.id], ...stored });
  const resources = flattenPages(stored.pages).length + stored.files.length;
  // Metadata files and the SUMMARY are in the archive but are not resources of their own.
  const skipped = entries.size - content.size;
  return { revision, importedResources: resources, totalResources: resources + skipped };
}

function importMarkdown(ctx: EmulatorContext, current: StoredRevision, bytes: Buffer): ImportResult {
  const markdown = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  const heading = /^#\s+(.+)$/m.exec(markdown)?.[1]?.trim();
  const title = heading ?? 'Imported page';
  const slug =
    title
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-|-$/g, '') || 'imported-page';
  const taken = new Set(flattenPages(current.pages).map((page) => page.sourcePath));
  let sourcePath = `${slug}.md`;
  for (let n = 2; taken.has(sourcePath); n += 1) sourcePath = posix.join(`${slug}-${n}.md`);
  const now = ctx.now().toISOString();
  const page: StoredPage = {
    id: newId('pg_'),
    title,
    slug,
    sourcePath,
    markdown,
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
