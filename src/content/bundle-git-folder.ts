// Bundles a mapped folder at a commit into the zip the service imports, from git objects only (never
// a working tree), streaming: blobs come one at a time from `git cat-file --batch` into the zip file.
// Its plan alone (planGitFolder) tells the export which files of the folder docsync owns.
import type { GitMirror } from '../git/git-mirror.js';
import { ContentError } from './content-error.js';
import { decodeTextFile, gitEntryKind, joinGitPath } from './git-listing.js';
import { GITBOOK_FILE, type GitbookLayout, readGitbookLayout } from './gitbook-layout.js';
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

/** What bundleGitFolder reads from the mirror. */
export type GitTreeSource = Pick<GitMirror, 'treeHash' | 'readFile' | 'listTree' | 'readBlobs'>;

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
  mirror: Omit<GitTreeSource, 'readBlobs'>,
  sha: string,
  dir: string,
  options: BundleOptions = {},
): Promise<GitFolderPlan> {
  const { signal } = options;
  const treeHash = await mirror.treeHash(sha, dir, signal);
  if (treeHash === undefined) {
    throw new ContentError('CONTENT_INVALID', `folder ${dir} does not exist at commit ${sha}`, { path: dir });
  }
  const layout = readGitbookLayout(
    decodeTextFile(await mirror.readFile(sha, joinGitPath(dir, GITBOOK_FILE), signal), GITBOOK_FILE),
  );
  const root = joinGitPath(dir, layout.root);
  if (layout.root !== '.' && (await mirror.treeHash(sha, root, signal)) === undefined) {
    throw new ContentError(
      'CONTENT_INVALID',
      `root ${layout.root} named in ${GITBOOK_FILE} is not a folder at commit ${sha}`,
      { path: root },
    );
  }

  const sources: BundleSource<string>[] = [];
  for await (const entry of mirror.listTree(sha, root, signal)) {
    sources.push({
      path: entry.path,
      kind: gitEntryKind(entry.mode),
      size: entry.size,
      source: entry.blob,
    });
  }
  const summary = summarySource(sources, layout);
  const summaryText =
    summary === undefined
      ? undefined
      : decodeTextFile(await mirror.readFile(sha, joinGitPath(root, summary.path), signal), layout.summary);
  const plan = planBundle(sources, layout, {
    limits: bundleLimits(options),
    skipFilesOver: options.skipFilesOver,
    unlisted: options.unlisted,
    summaryText,
  });
  return { plan, layout, root, treeHash };
}

/**
 * Writes the folder `dir` of commit `sha` to `outFile` as a zip, as planGitFolder plans it: names
 * relative to the root, sorted, with fixed times, so a commit always gives the same bytes. Symbolic
 * links and submodules are skipped and counted. Every refusal comes before any blob but the
 * summary is read and before the zip is started. The plan's warnings and left-out files come back.
 */
export async function bundleGitFolder(
  mirror: GitTreeSource,
  sha: string,
  dir: string,
  outFile: string,
  options: BundleOptions = {},
): Promise<BundleResult> {
  const { signal } = options;
  const { plan, treeHash } = await planGitFolder(mirror, sha, dir, options);
  const contents = blobContents(
    mirror.readBlobs(
      plan.entries.map((entry) => entry.source),
      signal,
    ),
  );
  const written = await writeBundle(plan, contents, outFile, bundleLimits(options), { signal });
  return { ...written, treeHash };
}

/** The limits of `options`, the service's where unset. */
function bundleLimits(options: BundleOptions): BundleLimits {
  return {
    maxBytes: options.maxBytes ?? DEFAULT_BUNDLE_LIMITS.maxBytes,
    maxFileBytes: options.maxFileBytes ?? DEFAULT_BUNDLE_LIMITS.maxFileBytes,
    maxFiles: options.maxFiles ?? DEFAULT_BUNDLE_LIMITS.maxFiles,
  };
}

async function* blobContents(blobs: AsyncIterable<{ data: Buffer }>): AsyncGenerator<Buffer> {
  for await (const { data } of blobs) yield data;
}
