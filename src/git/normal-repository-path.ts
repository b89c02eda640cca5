// A path inside a repository in one spelling, so that two ways of writing it compare equal: the
// configuration checks a spec's `source.root` with it, `docsync openapi --root` checks the flag
// alike, and the git source reader keeps the `$ref`s of a spec inside that root.
import { posix } from 'node:path';

/** A path in a repository without `.`, `..` inside, or leading and trailing `/`: `''` for the root. */
export function normalRepositoryPath(path: string): string {
  const normal = posix.normalize(path).replace(/^\/+/, '').replace(/\/+$/, '');
  return normal === '.' ? '' : normal;
}
