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
  /** The text of the file at each repository path; undefined where there is none. */
  read(files: readonly string[]): Promise<Map<string, string | undefined>>;
}

/**
 * The files of a commit in a mirror (or the repository a pipeline checked out), all read by one git
 * process: a git process a file was half the time of a run with many broken links.
 */
export function commitFiles(mirror: GitMirror, sha: string, folder: string, signal?: AbortSignal): GitFiles {
  return {
    folder,
    read: async (files) => {
      const contents = await mirror.readFiles(sha, files, signal);
      return new Map([...contents].map(([file, data]) => [file, data?.toString('utf8')]));
    },
  };
}

/** The files of a working copy on disk. */
export function workingCopyFiles(root: string, folder: string): GitFiles {
  return {
    folder,
    // Paths come from repositoryPath, which keeps them inside the root.
    read: async (files) =>
      new Map(
        await Promise.all(
          files.map(
            async (file) => [file, await readFile(join(root, file), 'utf8').catch(() => undefined)] as const,
          ),
        ),
      ),
  };
}

export async function locateBrokenLinks(
  broken: readonly BrokenLink[],
  files: GitFiles,
): Promise<BrokenLink[]> {
  const paths = new Map<string, string | undefined>();
  for (const link of broken) {
    const source = link.sourcePath;
    if (source !== undefined && !paths.has(source)) paths.set(source, repositoryPath(files.folder, source));
  }
  const wanted = [...new Set([...paths.values()].filter((file) => file !== undefined))];
  const texts = wanted.length === 0 ? new Map<string, string | undefined>() : await files.read(wanted);
  const sources = new Map(
    [...paths].map(([source, file]) => [source, file === undefined ? undefined : texts.get(file)] as const),
  );
  return placeBrokenLinks(broken, files.folder, sources);
}
