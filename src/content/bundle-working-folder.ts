// Bundles a docs folder of a local working copy (the file watcher, `docsync once --worktree`) with the
// same layout rules as a commit; the copy is only read. The same files give the same content hash
// as the commit holding them (writeBundle computes it), so a save and its commit are one import.
import { isUtf8 } from 'node:buffer';
import { constants } from 'node:fs';
import { lstat, open, readdir, readFile, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { shownGitPath } from '../git/shown-git-path.js';
import { ContentError } from './content-error.js';
import { GITBOOK_FILE, readGitbookLayout } from './gitbook-layout.js';
import { withLinksToLeftOut } from './links-to-left-out.js';
import {
  type BundlePlan,
  type BundleSource,
  DEFAULT_BUNDLE_LIMITS,
  planBundle,
  summarySource,
} from './plan-bundle.js';
import { type BundleOptions, type WrittenBundle, writeBundle } from './write-bundle.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

// Listing stops past this many times the file limit: enough for dotfiles and unlisted pages the
// plan leaves out, while a folder that could never fit (a build output, a dependency cache) is
// refused without walking all of it.
const LISTING_FACTOR = 4;

/**
 * Writes the docs of `folder` to `outFile` as bundleGitFolder does for a commit: `.gitbook.yaml`
 * honoured, `.git` left out. Symbolic links are skipped and counted, wherever they point, as a
 * commit's are: the same content gives the same bundle from the copy and from git (a link that
 * leaves the folder would also let the bundle read outside it). Folders whose name starts with a
 * dot (but `.gitbook`) are not walked: the plan would leave their files out anyway.
 */
export async function bundleWorkingFolder(
  folder: string,
  outFile: string,
  options: BundleOptions = {},
): Promise<WrittenBundle> {
  const limits = {
    maxBytes: options.maxBytes ?? DEFAULT_BUNDLE_LIMITS.maxBytes,
    maxFileBytes: options.maxFileBytes ?? DEFAULT_BUNDLE_LIMITS.maxFileBytes,
    maxFiles: options.maxFiles ?? DEFAULT_BUNDLE_LIMITS.maxFiles,
  };
  const base = await realpath(folder);
  const layout = readGitbookLayout(await readLayoutFile(join(base, GITBOOK_FILE)));
  // Through realpath, so that no link on the way to the root leads out of the folder.
  const root = await realpath(join(base, layout.root)).catch(() => undefined);
  const rootStats = root === undefined ? undefined : await lstat(root);
  if (root === undefined || !rootStats?.isDirectory() || !isInside(base, root)) {
    throw new ContentError(
      'CONTENT_INVALID',
      `root ${layout.root} named in ${GITBOOK_FILE} is not a folder`,
      {
        path: layout.root,
      },
    );
  }

  const sources: BundleSource<string>[] = [];
  const budget = { left: LISTING_FACTOR * limits.maxFiles };
  for await (const source of walk(root, root, budget)) sources.push(source);
  if (budget.left < 0) {
    throw new ContentError(
      'ARCHIVE_TOO_MANY_ENTRIES',
      `the docs root has more than ${LISTING_FACTOR * limits.maxFiles} files, far over the limit of ${limits.maxFiles} per import: move files out of it`,
    );
  }
  const summary = summarySource(sources, layout);
  const summaryText = summary === undefined ? undefined : await readSummary(summary.source, layout.summary);
  let plan: BundlePlan<string>;
  try {
    plan = planBundle(sources, layout, {
      limits,
      skipFilesOver: options.skipFilesOver,
      unlisted: options.unlisted,
      summaryText,
    });
  } catch (error) {
    // A folder too large: its pages read to count the links a proposed import.skipFilesOver would break.
    const fileOf = new Map(sources.map((source) => [source.path, source.source]));
    throw await withLinksToLeftOut(error, fileOf, readFiles);
  }
  return writeBundle(plan, readFiles(plan.entries.map((entry) => entry.source)), outFile, limits, {
    signal: options.signal,
  });
}

/**
 * Every entry below `dir`, without following links; `.git` (a folder, or a file in a worktree) is
 * not content and not counted. Stops listing once it is sure the limit of files is passed.
 */
async function* walk(
  root: string,
  dir: string,
  budget: { left: number },
): AsyncGenerator<BundleSource<string>> {
  // Names as bytes: one that is not UTF-8 would read back as another (U+FFFD), which is not there.
  for (const child of await readdir(dir, { withFileTypes: true, encoding: 'buffer' })) {
    if (!isUtf8(child.name)) {
      // Left out with a warning (plan-bundle.ts), never read, and a folder not walked into; its
      // whole path shown, the folders above too, as from git.
      const folder = relative(root, dir).split(sep).join('/');
      const path = Buffer.concat([Buffer.from(folder === '' ? '' : `${folder}/`), child.name]);
      yield { path: shownGitPath(path), kind: 'name-not-utf8', size: 0, source: '' };
      continue;
    }
    const childName = child.name.toString('utf8');
    if (childName === '.git') continue;
    const path = join(dir, childName);
    if (child.isDirectory()) {
      if (childName.startsWith('.') && childName !== '.gitbook') continue;
      yield* walk(root, path, budget);
      continue;
    }
    const name = relative(root, path).split(sep).join('/');
    if (!child.isFile()) {
      yield { path: name, kind: child.isSymbolicLink() ? 'link' : 'other', size: 0, source: path };
      continue;
    }
    budget.left -= 1;
    yield { path: name, kind: 'file', size: (await lstat(path)).size, source: path };
    if (budget.left < 0) return;
  }
}

/** Each file's content; O_NOFOLLOW, so a file swapped for a link since the listing is not followed. */
async function* readFiles(paths: readonly string[]): AsyncGenerator<Buffer> {
  for (const path of paths) {
    const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      yield await handle.readFile();
    } finally {
      await handle.close();
    }
  }
}

function isInside(base: string, path: string): boolean {
  const rel = relative(base, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** The summary's text, read before the plan is made (O_NOFOLLOW, as every content read). */
async function readSummary(path: string, name: string): Promise<string> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  let data: Buffer;
  try {
    data = await handle.readFile();
  } finally {
    await handle.close();
  }
  try {
    return utf8.decode(data);
  } catch (error) {
    throw new ContentError('CONTENT_INVALID', `${name} is not valid UTF-8 text: save it as UTF-8`, {
      path: name,
      cause: error,
    });
  }
}

/** The text of `.gitbook.yaml`; undefined when there is none, or it is not a regular file. */
async function readLayoutFile(path: string): Promise<string | undefined> {
  const stats = await lstat(path).catch(() => undefined);
  if (stats === undefined || !stats.isFile()) return undefined;
  const data = await readFile(path);
  try {
    return utf8.decode(data);
  } catch (error) {
    throw new ContentError('CONTENT_INVALID', `${GITBOOK_FILE} is not valid UTF-8 text`, {
      path: GITBOOK_FILE,
      cause: error,
    });
  }
}
