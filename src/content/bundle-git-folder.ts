// Bundles a mapped folder at a commit into the zip the service imports, from git objects only (never
// a working tree), streaming: blobs come one at a time from git into the zip file. Its plan alone
// (planGitFolder) tells the export which files of the folder docsync owns. One git process lists the
// folder (its tree id, its files and their sizes, which give the blob ids of `.gitbook.yaml` and the
// summary) and then reads the blobs (GitMirror.openFolder); a git older than 2.36 needs three.
import type { FolderObjects, GitMirror, TreeEntry } from '../git/git-mirror.js';
import { BlobQueue } from './blob-queue.js';
import { ContentError } from './content-error.js';
import { decodeTextFile, gitEntryKind, joinGitPath } from './git-listing.js';
import { GITBOOK_FILE, type GitbookLayout, readGitbookLayout } from './gitbook-layout.js';
import { withLinksToLeftOut } from './links-to-left-out.js';
import {
  type BundleLimits,
  type BundlePlan,
  type BundleSource,
  DEFAULT_BUNDLE_LIMITS,
  planBundle,
  summarySource,
} from './plan-bundle.js';
import { type BundleOptions, type WrittenBundle, writeBundle } from './write-bundle.js';

export type { BundleOptions };

export interface GitBundleOptions extends BundleOptions {
  /**
   * The tree id of `dir` at `sha` (`mirror.treeHash(sha, dir)`), when the caller looked it up
   * already: with a git older than 2.36 the bundle then skips that lookup, one git process fewer.
   */
  treeHash?: string | undefined;
}

/** What bundleGitFolder reads from the mirror. */
export type GitTreeSource = Pick<GitMirror, 'openFolder' | 'treeHash'>;

export interface BundleResult extends WrittenBundle {
  /**
   * The git tree id of the mapped folder (the one holding `.gitbook.yaml`, not its root): equal
   * ids give equal bundles, so `mirror.treeHash(sha, dir)` tells before bundling whether the content
   * changed since the last import.
   */
  treeHash: string;
}

/** The plan of a git folder, and where it was read: what an import sends and an export owns. */
export interface GitFolderPlan {
  plan: BundlePlan<string>;
  layout: GitbookLayout;
  /** The docs root from the repository's top: `dir` joined with the layout's root. */
  root: string;
  /** The git tree id of `dir`. */
  treeHash: string;
}

/**
 * The bundle plan of the folder `dir` of commit `sha` (see planBundle; sources are blob ids):
 * `.gitbook.yaml` in `dir` honoured (`root`, `structure.readme`, `structure.summary`), and of the
 * content only the summary read. A folder missing at `sha`, a bad `.gitbook.yaml` or a root past the
 * limits is a ContentError. The export reads it too: what the plan sends is what docsync owns.
 */
export async function planGitFolder(
  mirror: GitTreeSource,
  sha: string,
  dir: string,
  options: GitBundleOptions = {},
): Promise<GitFolderPlan> {
  const folder = await openFolder(mirror, sha, dir, options);
  const blobs = new BlobQueue(folder);
  try {
    return await planFromGit(mirror, folder, blobs, sha, dir, options);
  } finally {
    await blobs.abandon();
  }
}

/**
 * Writes the folder `dir` of commit `sha` to `outFile` as a zip, as planGitFolder plans it: names
 * relative to the root, sorted, with fixed times, so a commit always gives the same bytes. Symbolic
 * links and submodules are skipped and counted. Every refusal comes before any blob but
 * `.gitbook.yaml` and the summary is read and before the zip is started, but for a folder too large
 * that an import.skipFilesOver would fit: its pages are read, to count the links that would break. The plan's warnings and
 * left-out files come back.
 */
export async function bundleGitFolder(
  mirror: GitTreeSource,
  sha: string,
  dir: string,
  outFile: string,
  options: GitBundleOptions = {},
): Promise<BundleResult> {
  const folder = await openFolder(mirror, sha, dir, options);
  const blobs = new BlobQueue(folder);
  try {
    const { plan, treeHash } = await planFromGit(mirror, folder, blobs, sha, dir, options);
    blobs.askLast(plan.entries.map((entry) => entry.source));
    const written = await writeBundle(
      plan,
      blobs.contents(plan.entries.length),
      outFile,
      bundleLimits(options),
      {
        signal: options.signal,
      },
    );
    return { ...written, treeHash };
  } finally {
    await blobs.abandon();
  }
}

/** The folder, listed; a ContentError when it is not there. */
async function openFolder(
  mirror: GitTreeSource,
  sha: string,
  dir: string,
  options: GitBundleOptions,
): Promise<FolderObjects> {
  const folder = await mirror.openFolder(sha, dir, { signal: options.signal, treeHash: options.treeHash });
  if (folder === undefined)
    throw new ContentError('CONTENT_INVALID', `folder ${dir} does not exist at commit ${sha}`, { path: dir });
  return folder;
}

async function planFromGit(
  mirror: GitTreeSource,
  folder: FolderObjects,
  blobs: BlobQueue,
  sha: string,
  dir: string,
  options: GitBundleOptions,
): Promise<GitFolderPlan> {
  const { signal } = options;
  const { treeHash, entries: listed } = folder;
  // A submodule's id is a commit's; any other entry is a blob, read as the file's text.
  const gitbookEntry = listed.find(
    (entry) => entry.path === GITBOOK_FILE && gitEntryKind(entry) !== 'submodule',
  );
  const layout = readGitbookLayout(
    gitbookEntry === undefined
      ? undefined
      : decodeTextFile(await blobs.read(gitbookEntry.blob), GITBOOK_FILE),
  );
  const root = joinGitPath(dir, layout.root);
  const entries =
    layout.root === '.' ? listed : await rootEntries(mirror, listed, sha, dir, layout.root, signal);

  const sources: BundleSource<string>[] = entries.map((entry) => ({
    path: entry.path,
    kind: gitEntryKind(entry),
    size: entry.size,
    source: entry.blob,
  }));
  const summary = summarySource(sources, layout);
  const summaryText =
    summary === undefined ? undefined : decodeTextFile(await blobs.read(summary.source), layout.summary);
  let plan: BundlePlan<string>;
  try {
    plan = planBundle(sources, layout, {
      limits: bundleLimits(options),
      skipFilesOver: options.skipFilesOver,
      unlisted: options.unlisted,
      summaryText,
    });
  } catch (error) {
    // A folder too large: its pages read (the same git process) to count the links a proposed
    // import.skipFilesOver would break.
    const blobOf = new Map(sources.map((source) => [source.path, source.source]));
    throw await withLinksToLeftOut(error, blobOf, (ids) => {
      blobs.askLast(ids);
      return blobs.contents(ids.length);
    });
  }
  return { plan, layout, root, treeHash };
}

/**
 * The entries under `rootPath` (normalised, relative to `dir`) of `dir`'s listing, relative to it.
 * None there: an empty folder, or no folder at all, which the tree id tells.
 */
async function rootEntries(
  mirror: GitTreeSource,
  listed: readonly TreeEntry[],
  sha: string,
  dir: string,
  rootPath: string,
  signal: AbortSignal | undefined,
): Promise<TreeEntry[]> {
  const prefix = `${rootPath}/`;
  const entries = listed
    .filter((entry) => entry.path.startsWith(prefix))
    .map((entry) => ({ ...entry, path: entry.path.slice(prefix.length) }));
  if (
    entries.length === 0 &&
    (await mirror.treeHash(sha, joinGitPath(dir, rootPath), signal)) === undefined
  ) {
    throw new ContentError(
      'CONTENT_INVALID',
      `root ${rootPath} named in ${GITBOOK_FILE} is not a folder at commit ${sha}`,
      { path: joinGitPath(dir, rootPath) },
    );
  }
  return entries;
}

/** The limits of `options`, the service's where unset. */
function bundleLimits(options: BundleOptions): BundleLimits {
  return {
    maxBytes: options.maxBytes ?? DEFAULT_BUNDLE_LIMITS.maxBytes,
    maxFileBytes: options.maxFileBytes ?? DEFAULT_BUNDLE_LIMITS.maxFileBytes,
    maxFiles: options.maxFiles ?? DEFAULT_BUNDLE_LIMITS.maxFiles,
  };
}
