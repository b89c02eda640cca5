// Bundles a mapped folder at a commit into the zip the service imports, from git objects only (never
// a working tree), streaming: blobs come one at a time from `git cat-file --batch` into the zip file.
import type { GitMirror } from '../git/git-mirror.js';
import { ContentError } from './content-error.js';
import { GITBOOK_FILE, readGitbookLayout } from './gitbook-layout.js';
import { type BundleSource, DEFAULT_BUNDLE_LIMITS, planBundle } from './plan-bundle.js';
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

const MODE_KIND: Readonly<Record<string, BundleSource<string>['kind']>> = {
  '100644': 'file',
  '100755': 'file',
  '120000': 'link',
  '160000': 'submodule',
};
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Writes the folder `dir` of commit `sha` to `outFile` as a zip: `.gitbook.yaml` in `dir` is honoured
 * (`root`, `structure.readme`, `structure.summary`; see planBundle), names are relative to the root,
 * sorted, with fixed times, so a commit always gives the same bytes. Symbolic links and submodules are
 * skipped and counted. A folder missing at `sha`, a bad `.gitbook.yaml` or a root past `maxBytes` or
 * `maxFiles` is a ContentError, raised before the zip is started when the listing shows it.
 */
export async function bundleGitFolder(
  mirror: GitTreeSource,
  sha: string,
  dir: string,
  outFile: string,
  options: BundleOptions = {},
): Promise<BundleResult> {
  const { signal } = options;
  const limits = {
    maxBytes: options.maxBytes ?? DEFAULT_BUNDLE_LIMITS.maxBytes,
    maxFiles: options.maxFiles ?? DEFAULT_BUNDLE_LIMITS.maxFiles,
  };
  const treeHash = await mirror.treeHash(sha, dir, signal);
  if (treeHash === undefined) {
    throw new ContentError('CONTENT_INVALID', `folder ${dir} does not exist at commit ${sha}`, { path: dir });
  }
  const layout = readGitbookLayout(decode(await mirror.readFile(sha, joinPath(dir, GITBOOK_FILE), signal)));
  const root = joinPath(dir, layout.root);
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
      kind: MODE_KIND[entry.mode] ?? 'other',
      size: entry.size,
      source: entry.blob,
    });
  }
  const plan = planBundle(sources, layout, limits);
  const contents = blobContents(
    mirror.readBlobs(
      plan.entries.map((entry) => entry.source),
      signal,
    ),
  );
  const written = await writeBundle(plan, contents, outFile, limits, { signal });
  return { ...written, treeHash };
}

async function* blobContents(blobs: AsyncIterable<{ data: Buffer }>): AsyncGenerator<Buffer> {
  for await (const { data } of blobs) yield data;
}

function decode(data: Buffer | undefined): string | undefined {
  if (data === undefined) return undefined;
  try {
    return utf8.decode(data);
  } catch (error) {
    throw new ContentError('CONTENT_INVALID', `${GITBOOK_FILE} is not valid UTF-8 text`, {
      path: GITBOOK_FILE,
      cause: error,
    });
  }
}

/** `dir/path` in git's terms: `.` and empty segments dropped. */
function joinPath(dir: string, path: string): string {
  return [...dir.split('/'), ...path.split('/')]
    .filter((segment) => segment !== '' && segment !== '.')
    .join('/');
}
