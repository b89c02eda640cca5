// What the import and the export both need to read a docs folder from git objects: the kind of a
// tree entry by its mode, paths joined in git's terms, and text files decoded strictly.
import type { TreeEntry } from '../git/git-object-streams.js';
import { ContentError } from './content-error.js';
import type { BundleSource } from './plan-bundle.js';

const MODE_KIND: Readonly<Record<string, BundleSource<string>['kind']>> = {
  '100644': 'file',
  '100755': 'file',
  '120000': 'link',
  '160000': 'submodule',
};
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Regular files (executable or not) are files; links, submodules and the rest are not content, nor
 * is an entry whose name is not UTF-8, whatever it is.
 */
export function gitEntryKind(entry: Pick<TreeEntry, 'mode' | 'nameNotUtf8'>): BundleSource<string>['kind'] {
  if (entry.nameNotUtf8 !== undefined) return 'name-not-utf8';
  return MODE_KIND[entry.mode] ?? 'other';
}

/** `dir/path` in git's terms: `.` and empty segments dropped; '' for the repository root. */
export function joinGitPath(dir: string, path: string): string {
  return [...dir.split('/'), ...path.split('/')]
    .filter((segment) => segment !== '' && segment !== '.')
    .join('/');
}

/** A text file's bytes as UTF-8; anything else is CONTENT_INVALID naming the file and the fix. */
export function decodeTextFile(data: Buffer | undefined, path: string): string | undefined {
  if (data === undefined) return undefined;
  try {
    return utf8.decode(data);
  } catch (error) {
    throw new ContentError('CONTENT_INVALID', `${path} is not valid UTF-8 text: save it as UTF-8`, {
      path,
      cause: error,
    });
  }
}
