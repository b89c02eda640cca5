// Decides what goes into an import bundle, before any page is read: which files of the docs root,
// under which names (the configured readme and summary become README.md and SUMMARY.md, the names
// the service reads), in which order, with which summary text, and whether it fits the service's
// limits. Pure. It is also the export's definition of the files docsync owns in git: those the plan
// sends; everything it leaves out (dotfiles, another docs folder, the git host's README, unlisted
// pages, files over the size limit) an export never changes.

import { type ImportLimits, SERVICE_IMPORT_LIMITS } from '../api/schemas/service-import-limits.js';
import { formatBytes } from '../config/byte-size.js';
import { bundleSummary, explainLeftOutEntries } from './bundle-summary.js';
import { checkBundleLimits } from './check-bundle-limits.js';
import { ContentError } from './content-error.js';
import type { ContentWarning } from './content-warning.js';
import type { OutlineEntry, UnlistedPages } from './docs-outline.js';
import { DEFAULT_GITBOOK_LAYOUT, GITBOOK_FILE, type GitbookLayout } from './gitbook-layout.js';
import { readOutline } from './read-outline.js';
import { readmeMissingWarning } from './readme-missing-warning.js';
import { safeRelativePath } from './safe-relative-path.js';

/** A file found under the docs root, as git or the file system lists it. */
export interface BundleSource<T> {
  /** Relative to the docs root, as listed (normalised here). */
  path: string;
  /**
   * Only regular files are bundled; links, submodules and the rest are left out and counted, and an
   * entry whose name is not UTF-8 (`path` shows it byte by byte) is left out with a warning.
   */
  kind: 'file' | 'link' | 'submodule' | 'other' | 'name-not-utf8';
  /** Bytes, as listed; checked against the limits before anything is read. */
  size: number;
  /** How the caller reads the content: a blob id, a file path. */
  source: T;
}

export interface BundleEntry<T> {
  /** The zip entry name: normalised, relative to the docs root, readme and summary renamed. */
  name: string;
  /** The file's path in the docs root, normalised: `name` but for the configured readme and summary. */
  path: string;
  /** Bytes the bundle holds for it: the listed size, or the length of `data`. */
  size: number;
  source: T;
  /** Content the plan decided (the summary, its links retargeted or unlisted pages added): written instead of the source's. */
  data?: Buffer;
}

export type LeftOutReason =
  /** A symbolic link, a submodule or another entry that is not a regular file. */
  | 'not-a-file'
  /** `.gitbook.yaml` at the top of the root: docsync's and the service's configuration, not content. */
  | 'configuration'
  /** A name starting with a dot, or under such a folder (`.gitbook/` excepted): tool files. */
  | 'dotfile'
  /** Under a folder holding its own `.gitbook.yaml`: another docs folder. */
  | 'other-docs-folder'
  /** README.md beside the readme `.gitbook.yaml` names: the git host's page. */
  | 'git-readme'
  /** SUMMARY.md beside the summary `.gitbook.yaml` names. */
  | 'other-summary'
  /** Larger than `skipFilesOver`. */
  | 'over-size'
  /** A page the summary does not list, under `unlisted: skip`. */
  | 'unlisted'
  /** A file or folder whose name is not UTF-8: no page of the service can be named so. */
  | 'name-not-utf8';

export interface LeftOutFile<T> {
  /** As listed, normalised where it could be. */
  path: string;
  size: number;
  source: T;
  reason: LeftOutReason;
}

export interface BundlePlan<T> {
  /** In zip order: names sorted by UTF-16 code units, so no locale changes the bytes. */
  entries: BundleEntry<T>[];
  /** Sum of the entries' sizes. */
  bytes: number;
  /** Entries that are not regular files (symbolic links, submodules), also in `leftOut`. */
  skipped: number;
  /** Every listed entry not in `entries`, in listing order: what an export must leave alone. */
  leftOut: LeftOutFile<T>[];
  /** What the import reads past: SUMMARY.md lines, files left out, names clashing by case. */
  warnings: ContentWarning[];
  /** The pages as the service will see them, from the paths and the summary (paths as in git). */
  outline: OutlineEntry[];
  /** The configured readme's name when it was renamed to README.md. */
  readmeRenamedFrom: string | undefined;
}

export type BundleLimits = ImportLimits;

export const DEFAULT_BUNDLE_LIMITS: Readonly<BundleLimits> = SERVICE_IMPORT_LIMITS;

export interface BundlePlanOptions {
  /** Defaults: the service's, SERVICE_IMPORT_LIMITS. */
  limits?: Partial<BundleLimits> | undefined;
  /** Files larger than this are left out with a FILE_LEFT_OUT warning instead of refusing the folder. */
  skipFilesOver?: number | undefined;
  /** Pages the summary does not list: `skip` (the service's rule, default) or `append`. */
  unlisted?: UnlistedPages | undefined;
  /**
   * The text of the summary (`layout.summary`, found with summarySource) when the listing holds it.
   * Required then: without it the plan could not tell listed pages from the rest.
   */
  summaryText?: string | undefined;
}

export const README = DEFAULT_GITBOOK_LAYOUT.readme;
export const SUMMARY = DEFAULT_GITBOOK_LAYOUT.summary;

const MARKDOWN = /\.md$/i;
// What normalised changes: a backslash, an empty or `.` segment (`//`, a leading or trailing `/`, `./`).
const UNTIDY_PATH = /\\|(?:^|\/)\.?(?:\/|$)/;
// Sorted so that the first warnings kept in state are the ones a writer acts on.
const WARNING_ORDER: Readonly<Record<string, number>> = {
  FILE_LEFT_OUT: 1,
  PATH_CASE_CLASH: 2,
  PAGE_UNLISTED: 3,
};

/** The listed file that is the summary under `layout`, whose text planBundle needs; undefined if none. */
export function summarySource<T>(
  sources: Iterable<BundleSource<T>>,
  layout: GitbookLayout,
): BundleSource<T> | undefined {
  for (const source of sources) {
    if (source.kind === 'file' && normalised(source.path) === layout.summary) return source;
  }
  return undefined;
}

/**
 * The plan for `sources` under `layout`. Left out, with a warning where a writer would wonder: files
 * that are not regular files, `.gitbook.yaml`, dotfiles, folders with their own `.gitbook.yaml`, a
 * README.md or SUMMARY.md beside the configured readme or summary (FILE_LEFT_OUT), files over
 * `skipFilesOver` (FILE_LEFT_OUT), and pages the summary does not list under `unlisted: skip`
 * (PAGE_UNLISTED), with readOutline's other warnings (the summary's lines, PATH_CASE_CLASH), and
 * README_MISSING when the root has no readme (see readmeMissingWarning). The
 * bundle's summary links the configured readme as README.md, and links to
 * the git host's README.md as the configured readme's old name, which the bundle never holds: the
 * service skips that entry as readOutline's SUMMARY_MISSING_FILE says. Under `unlisted: append` the
 * bundle's summary also lists the unlisted pages (see appendUnlistedEntries).
 *
 * Refused with a ContentError: a path safeRelativePath refuses (PATH_UNSAFE); two paths that
 * normalise alike, a configured readme or summary that is missing or in a subfolder
 * (CONTENT_INVALID); files past `limits` (ARCHIVE_TOO_MANY_ENTRIES, ARCHIVE_TOO_LARGE, naming the
 * largest files and the fix; see checkBundleLimits).
 */
export function planBundle<T>(
  sources: Iterable<BundleSource<T>>,
  layout: GitbookLayout,
  options: BundlePlanOptions = {},
): BundlePlan<T> {
  const limits: BundleLimits = { ...DEFAULT_BUNDLE_LIMITS, ...definedLimits(options.limits) };
  const renames = configuredRenames(layout);
  const sorting = sortListing([...sources]);
  leaveOutBeside(sorting, layout);
  const { skipFilesOver } = options;
  if (skipFilesOver !== undefined) leaveOutOverSize(sorting, skipFilesOver);
  const { kept, leftOut, warnings } = sorting;

  const hasSummary = kept.has(layout.summary);
  if (hasSummary && options.summaryText === undefined) {
    throw new Error(`planBundle needs the text of ${layout.summary}, which the listing holds`);
  }
  const summaryText = hasSummary ? options.summaryText : undefined;
  const unlisted = options.unlisted ?? 'skip';
  const outline = readOutline(kept.keys(), summaryText, {
    readme: layout.readme,
    summary: layout.summary,
    unlisted,
  });
  const leftOutBefore = new Map(leftOut.map((file) => [file.path, file.reason]));
  warnings.push(
    ...(summaryText === undefined
      ? outline.warnings
      : explainLeftOutEntries(outline.warnings, summaryText, layout.summary, (path) => {
          const reason = leftOutBefore.get(path);
          return reason === undefined ? undefined : leftOutText(path, reason, layout);
        })),
  );
  const readmeMissing = readmeMissingWarning(outline.pages, layout, summaryText !== undefined);
  if (readmeMissing !== undefined) warnings.push(readmeMissing);
  leaveOutUnlisted(sorting, outline.pages, layout);

  const entries: BundleEntry<T>[] = [...kept].map(([path, source]) => ({
    name: renames.get(path) ?? path,
    path,
    size: source.size,
    source: source.source,
  }));
  const summaryEntry = entries.find((entry) => entry.path === layout.summary);
  if (summaryText !== undefined && summaryEntry !== undefined) {
    const bundled = bundleSummary(summaryText, outline.pages, {
      layout,
      unlisted,
      nameOf: (path) => renames.get(path) ?? path,
    });
    if (bundled !== summaryText) {
      summaryEntry.data = Buffer.from(bundled, 'utf8');
      summaryEntry.size = summaryEntry.data.length;
    }
  }
  entries.sort((a, b) => compare(a.name, b.name));
  checkBundleLimits(entries, limits, skipFilesOver);

  return {
    entries,
    bytes: entries.reduce((sum, entry) => sum + entry.size, 0),
    skipped: leftOut.filter((file) => file.reason === 'not-a-file').length,
    leftOut,
    warnings: sortWarnings(warnings),
    outline: outline.pages,
    readmeRenamedFrom: layout.readme === README ? undefined : layout.readme,
  };
}

/** The listing as it is being sorted: files kept by normalised path, the rest, and the warnings so far. */
interface Sorting<T> {
  kept: Map<string, BundleSource<T>>;
  leftOut: LeftOutFile<T>[];
  warnings: ContentWarning[];
}

function leave<T>(sorting: Sorting<T>, path: string, source: BundleSource<T>, reason: LeftOutReason): void {
  sorting.kept.delete(path);
  sorting.leftOut.push({ path, size: source.size, source: source.source, reason });
}

/** What is content at all: regular files that are not configuration, dotfiles or another docs folder. */
function sortListing<T>(listing: readonly BundleSource<T>[]): Sorting<T> {
  const sorting: Sorting<T> = { kept: new Map(), leftOut: [], warnings: [] };
  const otherDocsFolders = listing
    // The name as a test first: splitting every path would cost more than the rest of the plan.
    .filter((source) => source.kind === 'file' && source.path.includes(GITBOOK_FILE))
    .map((source) => normalised(source.path).split('/'))
    .filter((segments) => segments.length > 1 && segments.at(-1) === GITBOOK_FILE)
    .map((segments) => `${segments.slice(0, -1).join('/')}/`);
  for (const source of listing) {
    // A name shown with its bytes as \xNN holds backslashes that are not separators.
    const listed = source.kind === 'name-not-utf8' ? source.path : normalised(source.path);
    const reason = notContent(source, listed, otherDocsFolders);
    if (reason !== undefined) {
      leave(sorting, listed, source, reason);
      if (reason === 'name-not-utf8')
        sorting.warnings.push({
          code: 'FILE_LEFT_OUT',
          file: listed,
          message: `${listed} has a name that is not UTF-8 (shown with its bytes as \\xNN): it stays in git and is not imported; rename it to a UTF-8 name (git mv) to import it`,
        });
      continue;
    }
    const path = safeRelativePath(source.path, { subject: 'file', root: 'docs root' });
    if (sorting.kept.has(path)) throw layoutError(`the docs root holds ${path} twice`, path);
    sorting.kept.set(path, source);
  }
  return sorting;
}

/** Why a listed entry is not content, or undefined when it is. */
function notContent<T>(
  source: BundleSource<T>,
  listed: string,
  otherDocsFolders: readonly string[],
): LeftOutReason | undefined {
  if (source.kind !== 'file' && source.kind !== 'name-not-utf8') return 'not-a-file';
  if (otherDocsFolders.some((folder) => listed.startsWith(folder))) return 'other-docs-folder';
  if (listed === GITBOOK_FILE) return 'configuration';
  if (isDotPath(listed)) return 'dotfile';
  // Warned about only where it would have been content: a dotfile so named stays as quiet as any.
  if (source.kind === 'name-not-utf8') return 'name-not-utf8';
  return undefined;
}

/** A README.md or SUMMARY.md beside the configured readme or summary: left out, with a warning. */
function leaveOutBeside<T>(sorting: Sorting<T>, layout: GitbookLayout): void {
  for (const [configured, standard, key, reason] of [
    [layout.readme, README, 'structure.readme', 'git-readme'],
    [layout.summary, SUMMARY, 'structure.summary', 'other-summary'],
  ] as const) {
    if (configured === standard) continue;
    if (!sorting.kept.has(configured)) {
      throw layoutError(
        `${configured}, named by ${key} in ${GITBOOK_FILE}, is not in the docs root: add it, or correct ${key}`,
        configured,
      );
    }
    const beside = sorting.kept.get(standard);
    if (beside === undefined) continue;
    leave(sorting, standard, beside, reason);
    sorting.warnings.push({
      code: 'FILE_LEFT_OUT',
      file: standard,
      message:
        reason === 'git-readme'
          ? `${standard} is the git host's page; ${GITBOOK_FILE} names ${configured} as the first page: ${standard} stays in git and is not imported`
          : `${standard} is not the summary; ${GITBOOK_FILE} names ${configured}: ${standard} stays in git and is not imported`,
    });
  }
}

function leaveOutOverSize<T>(sorting: Sorting<T>, skipFilesOver: number): void {
  for (const [path, source] of sorting.kept) {
    if (source.size <= skipFilesOver) continue;
    leave(sorting, path, source, 'over-size');
    sorting.warnings.push({
      code: 'FILE_LEFT_OUT',
      file: path,
      message: `${path} is ${formatBytes(source.size)}, over import.skipFilesOver (${formatBytes(skipFilesOver)}): it stays in git and is not imported`,
    });
  }
}

/** Markdown pages the outline does not hold (under `skip`, those the summary does not list). */
function leaveOutUnlisted<T>(
  sorting: Sorting<T>,
  outline: readonly OutlineEntry[],
  layout: GitbookLayout,
): void {
  const pages = documentPaths(outline);
  for (const [path, source] of sorting.kept) {
    // The readme is the first page whatever the summary says; the summary is not a page.
    if (!MARKDOWN.test(path) || pages.has(path) || path === layout.summary || path === layout.readme)
      continue;
    leave(sorting, path, source, 'unlisted');
  }
}

/** The configured readme and summary, by path, to the names the service reads. */
function configuredRenames(layout: GitbookLayout): Map<string, string> {
  const renames = new Map<string, string>();
  for (const [key, configured, standard] of [
    ['structure.readme', layout.readme, README],
    ['structure.summary', layout.summary, SUMMARY],
  ] as const) {
    if (configured === standard) continue;
    // Its relative links would change meaning at the top of the bundle.
    if (configured.includes('/')) {
      throw layoutError(`${GITBOOK_FILE} ${key} ${configured} must be at the top of the docs root`);
    }
    renames.set(configured, standard);
  }
  return renames;
}

/** Why a file the summary lists is not imported, for its SUMMARY_MISSING_FILE warning. */
function leftOutText(path: string, reason: LeftOutReason, layout: GitbookLayout): string {
  switch (reason) {
    case 'git-readme':
      return `${path} is the git host's page and is not imported (${GITBOOK_FILE} names ${layout.readme} as the first page): the entry is read past and the entries under it take its place; link ${layout.readme}, or remove the entry`;
    case 'other-summary':
      return `${path} is not imported (${GITBOOK_FILE} names ${layout.summary} as the summary): the entry is read past; remove it`;
    case 'over-size':
      return `${path} is over import.skipFilesOver and is not imported: the entry is read past and the entries under it take its place; make the page smaller, or raise import.skipFilesOver`;
    case 'dotfile':
      return `${path} is not imported, as no name starting with a dot is: the entry is read past and the entries under it take its place; rename the file`;
    case 'other-docs-folder':
      return `${path} is in a folder with its own ${GITBOOK_FILE} (another docs folder) and is not imported: the entry is read past and the entries under it take its place`;
    default:
      return `${path} is not a regular file and is not imported: the entry is read past and the entries under it take its place`;
  }
}

function documentPaths(pages: readonly OutlineEntry[], into: Set<string> = new Set()): Set<string> {
  for (const page of pages) {
    if (page.kind === 'document') into.add(page.path);
    if (page.kind !== 'link') documentPaths(page.pages, into);
  }
  return into;
}

/** A dot-named file or folder anywhere on the path, but for `.gitbook` folders (assets live there). */
function isDotPath(path: string): boolean {
  if (!path.startsWith('.') && !path.includes('/.')) return false;
  const segments = path.split('/');
  return segments.some(
    (segment, index) =>
      segment.startsWith('.') && segment !== '..' && !(segment === '.gitbook' && index < segments.length - 1),
  );
}

/** Slashes and `.` segments tidied, for comparing names before safeRelativePath judges them. */
function normalised(path: string): string {
  // Most paths, as git lists them, are tidy already: left as they are without splitting them.
  if (!UNTIDY_PATH.test(path)) return path;
  return path
    .replaceAll('\\', '/')
    .split('/')
    .filter((segment) => segment !== '' && segment !== '.')
    .join('/');
}

function sortWarnings(warnings: readonly ContentWarning[]): ContentWarning[] {
  return warnings
    .map((warning, index) => ({ warning, index, rank: WARNING_ORDER[warning.code] ?? 0 }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map(({ warning }) => warning);
}

function definedLimits(limits: Partial<BundleLimits> | undefined): Partial<BundleLimits> {
  return Object.fromEntries(Object.entries(limits ?? {}).filter(([, value]) => value !== undefined));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function layoutError(message: string, path?: string): ContentError {
  return new ContentError('CONTENT_INVALID', message, path === undefined ? {} : { path });
}
