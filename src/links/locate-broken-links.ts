// Reads the source files of the pages with broken links from git (a commit, or a working copy) and
// places each link on its line (place-broken-links.ts). The only I/O of placing links.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_GITBOOK_LAYOUT, GITBOOK_FILE, readGitbookLayout } from '../content/gitbook-layout.js';
import type { GitMirror } from '../git/git-mirror.js';
import type { BrokenLink } from './broken-link.js';
import { type FolderLayout, placeBrokenLinks, repositoryPath } from './place-broken-links.js';

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

/**
 * The broken links placed in the files they are written in (see placeBrokenLinks). The folder's
 * `.gitbook.yaml`, read with the files, says where the service's paths are in git (its root, its
 * readme); a layout that cannot be read places nothing, since every file would be a guess.
 */
export async function locateBrokenLinks(
  broken: readonly BrokenLink[],
  files: GitFiles,
): Promise<BrokenLink[]> {
  const sourcePaths = [
    ...new Set(broken.flatMap((link) => (link.sourcePath === undefined ? [] : [link.sourcePath]))),
  ];
  if (sourcePaths.length === 0) return [...broken];
  const layoutFile = repositoryPath(files.folder, GITBOOK_FILE) ?? GITBOOK_FILE;
  // One read for the usual folder (no layout, or the default one): its files, guessed under the
  // default layout, come with `.gitbook.yaml`; another only when the layout moves them.
  let paths = repositoryPaths(sourcePaths, files.folder, DEFAULT_GITBOOK_LAYOUT);
  let texts = await files.read([layoutFile, ...wanted(paths)]);
  const layout = layoutOf(texts.get(layoutFile));
  if (layout === undefined) return [...broken];
  if (layout.root !== DEFAULT_GITBOOK_LAYOUT.root || layout.readme !== DEFAULT_GITBOOK_LAYOUT.readme) {
    paths = repositoryPaths(sourcePaths, files.folder, layout);
    const moved = wanted(paths);
    texts = moved.length === 0 ? new Map() : await files.read(moved);
  }
  const sources = new Map(
    [...paths].map(([source, file]) => [source, file === undefined ? undefined : texts.get(file)] as const),
  );
  return placeBrokenLinks(broken, files.folder, sources, layout);
}

function repositoryPaths(
  sourcePaths: readonly string[],
  folder: string,
  layout: FolderLayout,
): Map<string, string | undefined> {
  return new Map(sourcePaths.map((source) => [source, repositoryPath(folder, source, layout)] as const));
}

function wanted(paths: ReadonlyMap<string, string | undefined>): string[] {
  return [...new Set([...paths.values()].filter((file) => file !== undefined))];
}

/** The layout `.gitbook.yaml` names (the default without one); undefined when it cannot be read. */
function layoutOf(yamlText: string | undefined): FolderLayout | undefined {
  try {
    return readGitbookLayout(yamlText);
  } catch {
    return undefined;
  }
}
