// Git's side of space to git, at one commit: where the docs root is (`.gitbook.yaml`), every file
// in it with its blob and mode, its summary, and what docsync owns there. Owned are exactly the
// files the import of this folder would send (the bundle plan of src/content/plan-bundle.ts): the
// pages the service reads, its files, the summary and the readme. Everything else (dotfiles,
// `.gitbook.yaml`, unlisted pages under `unlisted: skip`, files left out for size, a README.md beside
// a configured readme, folders with their own `.gitbook.yaml`) an export never changes or deletes.
import type { MappingConfig } from '../config/mapping-schema.js';
import { BlobQueue } from '../content/blob-queue.js';
import { decodeTextFile, gitEntryKind, joinGitPath } from '../content/git-listing.js';
import { GITBOOK_FILE, type GitbookLayout, readGitbookLayout } from '../content/gitbook-layout.js';
import { type BundlePlan, type BundleSource, planBundle, README, SUMMARY } from '../content/plan-bundle.js';
import type { GitMirror, TreeEntry } from '../git/git-mirror.js';

export interface GitFolder {
  /** The docs root in the repository: the mapping's folder joined with `.gitbook.yaml`'s `root`. */
  contentDir: string;
  layout: GitbookLayout;
  /** Every file below the docs root, paths relative to it. */
  listing: TreeEntry[];
  /** The summary's bytes; undefined when the root has none. */
  summary: Buffer | undefined;
  /** The import's plan of the root: its entries are the files docsync owns. */
  plan: BundlePlan<string>;
}

export type GitFolderSource = Pick<GitMirror, 'readFile' | 'openFolder'>;

// Ownership does not depend on whether an import would fit: only on what it would send.
const NO_LIMITS = {
  maxBytes: Number.POSITIVE_INFINITY,
  maxFileBytes: Number.POSITIVE_INFINITY,
  maxFiles: Number.POSITIVE_INFINITY,
};

/**
 * The mapping's folder at `sha`: `.gitbook.yaml` read first, then only the docs root it names
 * listed, and its summary read, by one git process (GitMirror.openFolder). Files outside the root
 * are never listed: whatever they are named, they are not the export's.
 */
export async function readGitFolder(
  mirror: GitFolderSource,
  sha: string,
  mapping: Pick<MappingConfig, 'git' | 'import'>,
  signal: AbortSignal,
): Promise<GitFolder> {
  const { dir } = mapping.git;
  const layoutFile = await mirror.readFile(sha, joinGitPath(dir, GITBOOK_FILE), signal);
  const layout = readGitbookLayout(decodeTextFile(layoutFile, GITBOOK_FILE));
  const contentDir = joinGitPath(dir, layout.root);
  // A docs root that does not exist yet is an empty one: the first export creates it.
  const folder = await mirror.openFolder(sha, contentDir, { signal });
  const blobs = folder === undefined ? undefined : new BlobQueue(folder);
  try {
    const listing = folder?.entries ?? [];
    const summaryEntry = listing.find(
      (entry) => entry.path === layout.summary && gitEntryKind(entry) === 'file',
    );
    const summary = summaryEntry === undefined ? undefined : await blobs?.read(summaryEntry.blob);
    const plan = planOwned(listing, layout, mapping.import, decodeTextFile(summary, layout.summary));
    return { contentDir, layout, listing, summary, plan };
  } finally {
    await blobs?.abandon();
  }
}

/**
 * The import's plan of a docs root listed as `listing`, as the mapping's import would make it, but
 * for what the export writes in any case: a readme or summary `.gitbook.yaml` names that git does
 * not have yet is the export's to create, and no size limit of one import decides what is owned (a
 * file over the per-file limit is never sent, so never owned). Pure.
 */
export function planOwned(
  listing: ReadonlyArray<Pick<TreeEntry, 'path' | 'mode' | 'size' | 'nameNotUtf8'>>,
  layout: GitbookLayout,
  settings: MappingConfig['import'],
  summaryText: string | undefined,
): BundlePlan<string> {
  const listed = new Set(listing.map((entry) => entry.path));
  const sources: BundleSource<string>[] = listing.map((entry) => ({
    path: entry.path,
    kind: gitEntryKind(entry),
    size: entry.size,
    source: entry.path,
  }));
  if (layout.readme !== README && !listed.has(layout.readme))
    sources.push({ path: layout.readme, kind: 'file', size: 0, source: layout.readme });
  // No summary yet under the configured name, nor under the standard one: the folder has none.
  const planLayout =
    layout.summary !== SUMMARY && !listed.has(layout.summary) && !listed.has(SUMMARY)
      ? { ...layout, summary: SUMMARY }
      : layout;
  return planBundle(sources, planLayout, {
    limits: NO_LIMITS,
    skipFilesOver: settings.skipFilesOver ?? settings.limits.maxFileBytes,
    unlisted: settings.unlisted,
    summaryText,
  });
}
