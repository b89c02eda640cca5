// Reads the source files of the pages with broken links from git (a commit, or a working copy) and
// places each link on its line (place-broken-links.ts). The only I/O of placing links.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GitMirror } from '../git/git-mirror.js';
import type { BrokenLink } from './broken-link.js';
import { placeBrokenLinks, repositoryPath } from './place-broken-links.js';

/** Where the pages' files are read: a reader of repository paths, and the mapping's docs folder. */
export interface GitFiles {
  folder: string;
  /** The text of the file at a repository path; undefined when there is none. */
  read(file: string): Promise<string | undefined>;
}

/** The files of a commit in a mirror (or the repository a pipeline checked out). */
export function commitFiles(mirror: GitMirror, sha: string, folder: string, signal?: AbortSignal): GitFiles {
  return {
    folder,
    read: async (file) => (await mirror.readFile(sha, file, signal))?.toString('utf8'),
  };
}

/** The files of a working copy on disk. */
export function workingCopyFiles(root: string, folder: string): GitFiles {
  return {
    folder,
    // Paths come from repositoryPath, which keeps them inside the root.
    read: (file) => readFile(join(root, file), 'utf8').catch(() => undefined),
  };
}

export async function locateBrokenLinks(
  broken: readonly BrokenLink[],
  files: GitFiles,
): Promise<BrokenLink[]> {
  const sources = new Map<string, string | undefined>();
  for (const link of broken) {
    const source = link.sourcePath;
    if (source === undefined || sources.has(source)) continue;
    const file = repositoryPath(files.folder, source);
    sources.set(source, file === undefined ? undefined : await files.read(file));
  }
  return placeBrokenLinks(broken, files.folder, sources);
}
