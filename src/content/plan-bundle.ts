// Decides what goes into an import bundle, before any content is read: which files of the docs root,
// under which names (the configured readme and summary become README.md and SUMMARY.md, the names
// the service reads), in which order, and whether the bundle stays within its limits. Pure.
import { ContentError } from './content-error.js';
import { DEFAULT_GITBOOK_LAYOUT, GITBOOK_FILE, type GitbookLayout } from './gitbook-layout.js';
import { safeRelativePath } from './safe-relative-path.js';

/** A file found under the docs root, as git or the file system lists it. */
export interface BundleSource<T> {
  /** Relative to the docs root, as listed (normalised here). */
  path: string;
  /** Only regular files are bundled; links, submodules and the rest are skipped and counted. */
  kind: 'file' | 'link' | 'submodule' | 'other';
  /** Bytes, as listed; checked against the limits before anything is read. */
  size: number;
  /** How the caller reads the content: a blob id, a file path. */
  source: T;
}

export interface BundleEntry<T> {
  /** The zip entry name: normalised, relative to the docs root, readme and summary renamed. */
  name: string;
  size: number;
  source: T;
}

export interface BundlePlan<T> {
  /** In zip order: names sorted by UTF-16 code units, so no locale changes the bytes. */
  entries: BundleEntry<T>[];
  /** Sum of the entries' sizes. */
  bytes: number;
  /** Symbolic links, submodules and other entries that are not regular files. */
  skipped: number;
  /** The configured readme's name when it was renamed to README.md: summary links to it follow. */
  readmeRenamedFrom: string | undefined;
}

export interface BundleLimits {
  /** Content bytes of all files together, before compression. */
  maxBytes: number;
  maxFiles: number;
}

const MIB = 1024 * 1024;

export const DEFAULT_BUNDLE_LIMITS: Readonly<BundleLimits> = Object.freeze({
  maxBytes: 512 * MIB,
  maxFiles: 50_000,
});

export const README = DEFAULT_GITBOOK_LAYOUT.readme;
export const SUMMARY = DEFAULT_GITBOOK_LAYOUT.summary;

/**
 * The plan for `sources` under `layout`. Refused with a ContentError: a path safeRelativePath
 * refuses (PATH_UNSAFE); a configured readme or summary that is missing, sits in a subfolder (its
 * relative links would change meaning at the top) or would replace a README.md or SUMMARY.md that is
 * there too (CONTENT_INVALID); more files or bytes than `limits` (ARCHIVE_TOO_MANY_ENTRIES,
 * ARCHIVE_TOO_LARGE). `.gitbook.yaml` at the top of the root is configuration, not content: left out.
 */
export function planBundle<T>(
  sources: Iterable<BundleSource<T>>,
  layout: GitbookLayout,
  limits: BundleLimits = DEFAULT_BUNDLE_LIMITS,
): BundlePlan<T> {
  const renames = new Map<string, string>();
  for (const [key, configured, standard] of [
    ['structure.readme', layout.readme, README],
    ['structure.summary', layout.summary, SUMMARY],
  ] as const) {
    if (configured === standard) continue;
    if (configured.includes('/')) {
      throw layoutError(`${GITBOOK_FILE} ${key} ${configured} must be at the top of the docs root`);
    }
    renames.set(configured, standard);
  }

  const byName = new Map<string, BundleEntry<T>>();
  const renamed = new Set<string>();
  let skipped = 0;
  let bytes = 0;
  for (const source of sources) {
    if (source.kind !== 'file') {
      skipped += 1;
      continue;
    }
    const path = safeRelativePath(source.path, { subject: 'file', root: 'docs root' });
    if (path === GITBOOK_FILE) continue;
    const name = renames.get(path) ?? path;
    if (name !== path) renamed.add(path);
    const clash = byName.get(name);
    if (clash !== undefined) {
      const other = [...renames].find(([, standard]) => standard === name)?.[0];
      throw layoutError(
        other === undefined
          ? `the docs root holds ${name} twice`
          : `${name} and the ${other} named in ${GITBOOK_FILE} would both be ${name}`,
        name,
      );
    }
    byName.set(name, { name, size: source.size, source: source.source });
    bytes += source.size;
    if (byName.size > limits.maxFiles) {
      throw new ContentError(
        'ARCHIVE_TOO_MANY_ENTRIES',
        `the docs root has more than the limit of ${limits.maxFiles} files`,
      );
    }
    if (bytes > limits.maxBytes) {
      throw new ContentError(
        'ARCHIVE_TOO_LARGE',
        `the docs root holds more than the limit of ${limits.maxBytes} bytes (${bytes} or more)`,
      );
    }
  }
  for (const configured of renames.keys()) {
    if (!renamed.has(configured)) {
      throw layoutError(`${configured}, named in ${GITBOOK_FILE}, is not in the docs root`, configured);
    }
  }
  const entries = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const readmeRenamedFrom = layout.readme === README ? undefined : layout.readme;
  return { entries, bytes, skipped, readmeRenamedFrom };
}

function layoutError(message: string, path?: string): ContentError {
  return new ContentError('CONTENT_INVALID', message, path === undefined ? {} : { path });
}
