// The content of a space as a docs tree, the read half of space to git: the revision with its page
// tree, each page's markdown (read on its own when the revision leaves it out: an empty one makes
// a placeholder), and each file's bytes from its download address. Every path is checked before any
// file is downloaded; pages and files are read a few at a time, so a large space neither waits on
// one request at a time nor floods the service. Each page's markdown and each file's bytes go to the
// content store (the git mirror) as they arrive, a page's as the revision's body streams in: the
// tree holds blob ids, so a space's content is never in memory at once. The revision's own objects
// (every page's metadata) are dropped once planned: only the plan lives on to the downloads.
import type { DocsApiClient } from '../api/docs-api-client.js';
import type { RevisionPage } from '../api/schemas/revision-page-schema.js';
import type { Revision } from '../api/schemas/revision-schema.js';
import { mapBounded } from '../concurrency/map-bounded.js';
import type { DocsTree } from '../content/docs-tree.js';
import type { StoredBlob } from '../content/folder-bytes.js';
import { DocsyncError } from '../errors/docsync-error.js';
import { downloadFile } from './download-file.js';
import { ExportPathError } from './export-path-error.js';
import {
  type ExportPlan,
  type ExportPlanOptions,
  pagesWithoutMarkdown,
  planExport,
  treeOf,
} from './revision-to-tree.js';
import { type ContentStore, type StoredText, storedPageText, storeText } from './stored-text.js';

export interface ReadSpaceOptions {
  /** Reads the revision and pages, and downloads the files (its token to its own origin only). */
  api: DocsApiClient;
  space: string;
  maxFileBytes: number;
  signal: AbortSignal;
  /**
   * Git's side: the configured readme name and the paths git's folder holds (see planExport). A
   * promise is awaited once the revision is read, so that git's folder is read meanwhile.
   */
  layout?: ExportPlanOptions | Promise<ExportPlanOptions>;
  /** Where the pages' markdown and the files' bytes go: finished before the content is returned. */
  store: ContentStore;
}

export interface SpaceContent {
  /** The revision read: its id (its pages are in `tree`). */
  revision: Pick<Revision, 'id'>;
  tree: DocsTree<StoredText, StoredBlob>;
}

const DOWNLOAD_TIMEOUT_MS = 60_000;
/** Requests in flight at once while reading pages and files. */
const PARALLEL_READS = 6;

export async function readSpaceContent(options: ReadSpaceOptions): Promise<SpaceContent> {
  const { api, signal, store } = options;
  const { id, plan } = await readPlan(options);
  const data = new Map<string, StoredBlob>();
  await mapBounded(plan.files, PARALLEL_READS, async (file) => {
    const bytes = await downloadFile(api, file.downloadURL ?? '', `file ${file.path}`, {
      maxBytes: options.maxFileBytes,
      timeoutMs: DOWNLOAD_TIMEOUT_MS,
      signal,
    });
    data.set(file.id, store.add(bytes));
    if (store.congested) await store.drained();
  });
  const tree = treeOf(plan, data, () => store.add(Buffer.alloc(0)));
  await store.finish();
  return { revision: { id }, tree };
}

/**
 * The revision read and planned, every path and file checked. A function of its own so that the
 * revision (a hundred thousand pages' metadata) is garbage once it returns, not held by the
 * caller's frame while files download and the folder is written.
 */
async function readPlan(options: ReadSpaceOptions): Promise<{ id: string; plan: ExportPlan<StoredText> }> {
  const { api, space, signal, store } = options;
  // By the page object the revision holds: a read the client tries again from the start makes new
  // ones, so nothing of an answer given up on is taken for the revision's.
  const inline = new WeakMap<RevisionPage, StoredText>();
  const revision = await api.content.getRevision(
    { spaceId: space },
    {
      signal,
      contentOnly: true,
      // Each page's markdown goes to the store as the page arrives; the page keeps none.
      keepPage: (page) => {
        if (page.markdown !== undefined) {
          inline.set(page, storeText(store, page.markdown));
          page.markdown = undefined;
        }
        return page;
      },
      pause: () => (store.congested ? store.drained() : undefined),
    },
  );
  // Markdown first: whether a page made in the service is a placeholder depends on it.
  const read = new Map<string, StoredText>();
  await mapBounded(
    pagesWithoutMarkdown(revision, (page) => inline.has(page)),
    PARALLEL_READS,
    async (pageId) => {
      const page = await api.content.getPage({ spaceId: space }, pageId, { format: 'markdown', signal });
      read.set(pageId, storeText(store, page.markdown ?? ''));
      if (store.congested) await store.drained();
    },
  );
  const plan = planExport(
    revision,
    (await options.layout) ?? {},
    storedPageText(
      (page) => inline.get(page) ?? read.get(page.id),
      () => storeText(store, ''),
    ),
  );
  if (plan.problems.length > 0) throw new ExportPathError(space, revision.id, plan.problems);

  for (const file of plan.files) {
    if (file.downloadURL === undefined)
      throw new DocsyncError(
        'EXPORT_DOWNLOAD_FAILED',
        `file ${file.path} (${file.id}) has no download address`,
      );
    if (file.size !== undefined && file.size > options.maxFileBytes) {
      throw new DocsyncError(
        'EXPORT_FILE_TOO_LARGE',
        `file ${file.path} (${file.id}) is ${file.size} bytes, over export.maxFileBytes (${options.maxFileBytes}); remove it from the space or raise the limit`,
      );
    }
  }
  return { id: revision.id, plan };
}
