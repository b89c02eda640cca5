// Bundles a mapped folder at a commit into the zip the service imports, from git objects only (never
// a working tree), streaming: blobs come one at a time from `git cat-file --batch` into the zip file.
// Its plan alone (planGitFolder) tells the export which files of the folder docsync owns.
// Three git processes in all, the first two at once: the folder's tree id (none when the caller
// gives it), its listing (which also gives the blob ids of `.gitbook.yaml` and the summary), and one
// `cat-file --batch` for every blob. Each start blocks this thread for milliseconds (a fork, dearer
// the larger this process): on a folder of a few hundred files, most of the time.
import type { BlobData, GitMirror, TreeEntry } from '../git/git-mirror.js';
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

export interface GitBundleOptions extends BundleOptions {
  /**
   * The tree id of `dir` at `sha` (`mirror.treeHash(sha, dir)`), when the caller looked it up
   * already: the bundle then skips that lookup, one git process fewer.
   */
  treeHash?: string | undefined;
}

/** What bundleGitFolder reads from the mirror. */
export type GitTreeSource = Pick<GitMirror, 'treeHash' | 'listTree' | 'readBlobs'>;

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
  const blobs = new BlobQueue(mirror, options.signal);
  try {
    return await planFromGit(mirror, blobs, sha, dir, options);
  } finally {
    await blobs.abandon();
  }
}

/**
 * Writes the folder `dir` of commit `sha` to `outFile` as a zip, as planGitFolder plans it: names
 * relative to the root, sorted, with fixed times, so a commit always gives the same bytes. Symbolic
 * links and submodules are skipped and counted. Every refusal comes before any blob but
 * `.gitbook.yaml` and the summary is read and before the zip is started. The plan's warnings and
 * left-out files come back.
 */
export async function bundleGitFolder(
  mirror: GitTreeSource,
  sha: string,
  dir: string,
  outFile: string,
  options: GitBundleOptions = {},
): Promise<BundleResult> {
  const blobs = new BlobQueue(mirror, options.signal);
  try {
    const { plan, treeHash } = await planFromGit(mirror, blobs, sha, dir, options);
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

async function planFromGit(
  mirror: GitTreeSource,
  blobs: BlobQueue,
  sha: string,
  dir: string,
  options: GitBundleOptions,
): Promise<GitFolderPlan> {
  const { signal } = options;
  // The listing of `dir` runs beside the tree id's lookup, started first as it takes longer: it is
  // the docs root's own unless `.gitbook.yaml` names another root below, and it holds
  // `.gitbook.yaml`. A missing folder or commit is told by the tree id, whose failure comes first.
  const lookUpTree = async () => options.treeHash ?? (await mirror.treeHash(sha, dir, signal));
  // Its own abort too: a lookup that ends the plan first stops the listing's git process.
  const stopListing = new AbortController();
  const listing = collect(() =>
    mirror.listTree(
      sha,
      dir,
      signal === undefined ? stopListing.signal : AbortSignal.any([signal, stopListing.signal]),
    ),
  );
  listing.catch(() => {});
  const missing = () =>
    new ContentError('CONTENT_INVALID', `folder ${dir} does not exist at commit ${sha}`, { path: dir });
  const treeHash = await lookUpTree().catch((error: unknown) => {
    stopListing.abort();
    throw error;
  });
  if (treeHash === undefined) {
    stopListing.abort();
    throw missing();
  }
  const listed = await listing.catch(async (error: unknown) => {
    // A tree id given for a folder that is not there: the lookup, skipped, still tells it first.
    if (options.treeHash !== undefined && (await mirror.treeHash(sha, dir, signal)) === undefined)
      throw missing();
    throw error;
  });
  // A submodule's id is a commit's; any other entry is a blob, read as the file's text.
  const gitbookEntry = listed.find(
    (entry) => entry.path === GITBOOK_FILE && gitEntryKind(entry.mode) !== 'submodule',
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
    kind: gitEntryKind(entry.mode),
    size: entry.size,
    source: entry.blob,
  }));
  const summary = summarySource(sources, layout);
  const summaryText =
    summary === undefined ? undefined : decodeTextFile(await blobs.read(summary.source), layout.summary);
  const plan = planBundle(sources, layout, {
    limits: bundleLimits(options),
    skipFilesOver: options.skipFilesOver,
    unlisted: options.unlisted,
    summaryText,
  });
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

/** Every entry of a listing; one the mirror refuses to start (a bad path) is a rejection too. */
async function collect(list: () => AsyncIterable<TreeEntry>): Promise<TreeEntry[]> {
  const entries: TreeEntry[] = [];
  for await (const entry of list()) entries.push(entry);
  return entries;
}

/**
 * One `git cat-file --batch` for a whole bundle, started at the first blob asked for: ids are handed
 * to git as they become known (`.gitbook.yaml`, then the summary, then the plan's entries), and the
 * contents come back in the order asked. `closed`: no more ids will be asked.
 */
class BlobQueue {
  private readonly waiting: string[] = [];
  private closed = false;
  private wake: (() => void) | undefined;
  private reader: AsyncIterator<BlobData> | undefined;

  constructor(
    private readonly mirror: GitTreeSource,
    private readonly signal: AbortSignal | undefined,
  ) {}

  /** Asks for these blobs; their contents come from `next`, in order. */
  ask(ids: Iterable<string>): void {
    // One at a time: spread as arguments, the ids of a large folder would pass the stack's limit.
    for (const id of ids) this.waiting.push(id);
    this.wake?.();
  }

  /**
   * Asks for these blobs, the last: git's input ends after them. Asked before any other (no
   * `.gitbook.yaml`, no summary), they go to git as one list, which git answers in buffered writes
   * (see readBlobContents).
   */
  askLast(ids: Iterable<string>): void {
    this.closed = true;
    this.ask(ids);
  }

  async read(id: string): Promise<Buffer> {
    this.ask([id]);
    return this.next();
  }

  /**
   * `count` contents in the order asked, then git's exit checked. A plain iterator: an async
   * generator around `next` would add a round of promises to every file.
   */
  contents(count: number): AsyncIterable<Buffer> {
    let left = count;
    const iterator: AsyncIterator<Buffer> = {
      next: async () => {
        if (left === 0) {
          await this.end();
          return { done: true, value: undefined };
        }
        left -= 1;
        return { done: false, value: await this.next() };
      },
    };
    return { [Symbol.asyncIterator]: () => iterator };
  }

  /** No more blobs to ask for: git's exit is checked once it answered all. */
  private async end(): Promise<void> {
    this.closed = true;
    this.wake?.();
    if (this.reader === undefined) return;
    // abandon stops git if this fails.
    if (!(await this.reader.next()).done) throw new Error('git answered more blobs than asked');
    this.reader = undefined;
  }

  /** Stops git if it still runs (a refusal, a failure); safe when done, or twice. */
  async abandon(): Promise<void> {
    this.closed = true;
    this.wake?.();
    const reader = this.reader;
    this.reader = undefined;
    await reader?.return?.();
  }

  private async next(): Promise<Buffer> {
    this.reader ??= this.mirror
      .readBlobs(this.closed ? this.waiting.splice(0) : this.ids(), this.signal)
      [Symbol.asyncIterator]();
    const next = await this.reader.next();
    if (next.done) throw new Error('git answered fewer blobs than asked');
    return next.value.data;
  }

  private async *ids(): AsyncGenerator<string> {
    for (;;) {
      while (this.waiting.length === 0 && !this.closed) {
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
      }
      if (this.waiting.length === 0) return;
      yield* this.waiting.splice(0);
    }
  }
}
