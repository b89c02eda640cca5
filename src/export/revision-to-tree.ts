// A space's revision as the folder export writes, in the service's page kinds: a document at the
// source path the service keeps for it (`git.path`, set when it came from a folder) or, for a page
// made in the service, in the folder its siblings' (else its parent's) files are in, named from its
// slug (new-page-folder.ts), else at a path derived from its place on the site (`guides/install.md`,
// `guides/README.md` for a page with children), either way one no other page and no file of git's
// folder has;
// a group (top level only); a link (`target.url`, else `href`); and a document with neither a source
// path nor content, which is a summary entry without a file (a placeholder), never a new empty file.
// Files go at their `git.path` or under `.gitbook/assets/`. Every path goes through
// safeRelativePath; all offenders are collected and named together.
import type { RevisionPage } from '../api/schemas/revision-page-schema.js';
import type { Revision } from '../api/schemas/revision-schema.js';
import type { DocsPage, DocsTree } from '../content/docs-tree.js';
import type { ExportPathProblem } from './export-path-error.js';
import { ExportPaths } from './export-paths.js';
import { folderOfChildren, folderOfSibling, newPageFolder, newPagePath } from './new-page-folder.js';

/** A file to download before writing: where it goes and where to get it. */
export interface PlannedFile {
  id: string;
  path: string;
  name: string;
  contentType: string;
  downloadURL: string | undefined;
  size: number | undefined;
}

export interface ExportPlan<M = string> {
  /** Pages with their markdown, documents at the paths they are written to. */
  pages: DocsPage<M>[];
  /** Files still to fetch, in path order. */
  files: PlannedFile[];
  problems: ExportPathProblem[];
}

export interface ExportPlanOptions {
  /**
   * The first page's file name in git (`.gitbook.yaml` `structure.readme`): the service's README.md
   * at the top is written there. Default `README.md`.
   */
  readme?: string;
  /**
   * Every path of git's docs folder now. Two paths that differ only in letter case are refused
   * (they would be one file on macOS and Windows) unless git already holds both; pages and files
   * made in the service get paths no file here has, so an export never writes over a file the
   * service does not hold.
   */
  existing?: ReadonlySet<string>;
}

/**
 * How the plan holds a document's markdown (`M`): the text the revision carries, or what an export
 * kept of it once handed to the git mirror (stored-text.ts), and whether it is blank (a page made in
 * the service with no text is a placeholder).
 */
export interface PageText<M> {
  of(page: RevisionPage): M;
  blank(markdown: M): boolean;
}

const REVISION_TEXT: PageText<string> = {
  of: (page) => page.markdown ?? '',
  blank: (markdown) => markdown.trim() === '',
};

export const ASSETS_FOLDER = '.gitbook/assets';

const SERVICE_README = 'README.md';
const MARKDOWN = /\.md$/i;
// What a summary reads as a link out of the docs: a scheme of two letters or more, or `//host`.
const ADDRESS = /^(?:[A-Za-z][A-Za-z0-9+.-]+:|\/\/)/;

/**
 * Ids of the documents whose markdown the revision did not carry (nor `kept`, where a reader put it
 * as the page arrived): read them on their own first.
 */
export function pagesWithoutMarkdown(
  revision: Revision,
  kept: (page: RevisionPage) => boolean = () => false,
): string[] {
  const ids: string[] = [];
  const visit = (pages: readonly RevisionPage[]): void => {
    for (const page of pages) {
      if (kindOf(page) === 'document' && page.markdown === undefined && !kept(page)) ids.push(page.id);
      visit(page.pages ?? []);
    }
  };
  visit(revision.pages ?? []);
  return ids;
}

export function planExport(revision: Revision, options?: ExportPlanOptions): ExportPlan;
export function planExport<M>(
  revision: Revision,
  options: ExportPlanOptions,
  text: PageText<M>,
): ExportPlan<M>;
export function planExport<M>(
  revision: Revision,
  options: ExportPlanOptions = {},
  text: PageText<M> = REVISION_TEXT as unknown as PageText<M>,
): ExportPlan<M> {
  const paths = new ExportPaths(options.readme ?? SERVICE_README, options.existing ?? new Set<string>());
  // Source paths first, wherever their pages are: a derived path must not take one of them.
  const sourcePaths = new Map<RevisionPage, string>();
  claimSourcePaths(paths, revision.pages ?? [], sourcePaths);
  const walk: PageWalk<M> = {
    paths,
    text,
    sourcePaths,
    firstPageHasFile: [...sourcePaths.values()].includes(paths.readme),
    progress: { firstEntry: true },
  };
  const pages = planPages(walk, revision.pages ?? [], '', 'top', undefined);
  const files = planFiles(paths, revision.files ?? []);
  return { pages, files, problems: paths.problems };
}

/** Claims the source path (`git.path`) of every document among `pages` and below, into `sourcePaths`. */
function claimSourcePaths(
  paths: ExportPaths,
  pages: readonly RevisionPage[],
  sourcePaths: Map<RevisionPage, string>,
): void {
  for (const page of pages) {
    const raw = page.git?.path;
    if (raw !== undefined && kindOf(page) === 'document') {
      const subject = subjectOf(page);
      const path = paths.normalised(raw, subject);
      if (path !== undefined && paths.claim(path, subject) !== undefined) sourcePaths.set(page, path);
      if (path !== undefined && !MARKDOWN.test(path))
        paths.problems.push({ subject, reason: `path ${path} does not end in .md` });
    }
    claimSourcePaths(paths, page.pages ?? [], sourcePaths);
  }
}

/** What the walk of the revision's pages reads and keeps: the paths, and whether an entry came yet. */
interface PageWalk<M> {
  paths: ExportPaths;
  text: PageText<M>;
  sourcePaths: ReadonlyMap<RevisionPage, string>;
  firstPageHasFile: boolean;
  /** The readme can only be the first entry of the summary (a group heading aside). */
  progress: { firstEntry: boolean };
}

/** Where one page sits: its siblings' folders, its place among them, its parent's site path and folder. */
interface PagePlace {
  siblings: (string | undefined)[];
  index: number;
  parentSite: string;
  depth: 'top' | 'group' | 'nested';
  /** Where these pages go, when none of them has a file (new-page-folder.ts). */
  parentFolder: string | undefined;
}

function isReadme(readme: string, path: string): boolean {
  return path === readme || /(?:^|\/)readme\.md$/i.test(path);
}

/** `pages` planned in order, each with the pages below it. */
function planPages<M>(
  walk: PageWalk<M>,
  pages: readonly RevisionPage[],
  parentSite: string,
  depth: PagePlace['depth'],
  parentFolder: string | undefined,
): DocsPage<M>[] {
  // Only files git holds for the space (a person's layout) decide where a new page goes.
  const siblings = pages.map((page) => {
    const path = walk.sourcePaths.get(page);
    return path === undefined
      ? undefined
      : folderOfSibling(path, (page.pages ?? []).length > 0, isReadme(walk.paths.readme, path));
  });
  return pages.flatMap((page, index) =>
    planPage(walk, page, { siblings, index, parentSite, depth, parentFolder }),
  );
}

/** One page as the tree holds it: a group, a link, a document or a placeholder; none after a problem. */
function planPage<M>(walk: PageWalk<M>, page: RevisionPage, place: PagePlace): DocsPage<M>[] {
  const title = oneLine(page.title ?? '') || page.slug || 'Untitled';
  const slug = page.slug ?? '';
  const subject = subjectOf(page);
  const kind = kindOf(page);
  const { parentSite } = place;
  const site =
    page.path ?? (parentSite === '' ? (page.slug ?? page.id) : `${parentSite}/${page.slug ?? page.id}`);
  const children = page.pages ?? [];
  const id = { id: page.id };
  if (kind === 'group') {
    if (place.depth !== 'top')
      walk.paths.problems.push({ subject, reason: 'is a group below the top level' });
    // A group is a heading of the summary, not a folder: its pages' derived paths ignore it.
    return [
      { kind: 'group', ...id, title, slug, pages: planPages(walk, children, parentSite, 'group', undefined) },
    ];
  }
  const first = walk.progress.firstEntry;
  walk.progress.firstEntry = false;
  if (kind === 'link') {
    const href = linkAddress(page);
    if (href === undefined) {
      walk.paths.problems.push({ subject, reason: 'is a link without an address a summary can hold' });
      return [];
    }
    if (!ADDRESS.test(href)) {
      walk.paths.problems.push({
        subject,
        reason: `links to ${href}, which a summary would read as a file of the folder: give it a full address (https://…)`,
      });
      return [];
    }
    return [{ kind: 'link', ...id, title, slug, href }];
  }
  return planDocument(walk, page, place, { first, title, slug, site, subject });
}

/** A document at its source path, or at a new one (beside its siblings' files), or a placeholder. */
function planDocument<M>(
  walk: PageWalk<M>,
  page: RevisionPage,
  place: PagePlace,
  named: { first: boolean; title: string; slug: string; site: string; subject: string },
): DocsPage<M>[] {
  const { paths } = walk;
  const { first, title, slug, site, subject } = named;
  const children = page.pages ?? [];
  const id = { id: page.id };
  const markdown = walk.text.of(page);
  let path = walk.sourcePaths.get(page);
  // Where this page's children go when none of them has a file: beside its own file, or, for a
  // page with a derived path, derived as well (today's paths for a space made in the service).
  let childFolder = path === undefined ? undefined : folderOfChildren(path);
  if (page.git?.path === undefined) {
    const readmeFirst = first && !walk.firstPageHasFile;
    const folder = readmeFirst
      ? undefined
      : newPageFolder({ siblings: place.siblings, index: place.index, parent: place.parentFolder });
    const placed =
      folder === undefined ? undefined : newPagePath(folder, page.slug || page.id, children.length > 0);
    // Made in the service with no content: an entry with a title and no file; its children go
    // where its file would have gone, in a folder of its own.
    if (walk.text.blank(markdown)) {
      const nested = planPages(walk, children, site, 'nested', placed && folderOfChildren(placed.wanted));
      return [{ kind: 'placeholder', ...id, title, slug, pages: nested }];
    }
    const derived = readmeFirst
      ? paths.readme
      : placed !== undefined
        ? paths.free(placed.wanted, placed.variant)
        : paths.free(children.length > 0 ? `${site}/README.md` : `${site}.md`, (n) =>
            children.length > 0 ? `${site}-${n}/README.md` : `${site}-${n}.md`,
          );
    const checked = paths.normalised(derived, subject);
    path = checked === undefined ? undefined : paths.claim(checked, subject);
    childFolder = path !== undefined && placed !== undefined ? folderOfChildren(path) : undefined;
  }
  // Children after their parent: a new child placed beside its parent needs the parent's path.
  const nested = planPages(walk, children, site, 'nested', childFolder);
  if (path === undefined) return [];
  return [{ ...id, path, title, slug, markdown, pages: nested }];
}

/** The revision's files at their source paths, else under ASSETS_FOLDER at a free path; in path order. */
function planFiles(paths: ExportPaths, revisionFiles: NonNullable<Revision['files']>): PlannedFile[] {
  const files: PlannedFile[] = [];
  for (const file of revisionFiles) {
    const name = file.name ?? file.id;
    const subject = `file ${name} (${file.id})`;
    const source = file.git?.path;
    const raw = source ?? `${ASSETS_FOLDER}/${name}`;
    let path = paths.normalised(raw, subject);
    if (path === undefined) continue;
    if (source === undefined) {
      const dot = path.lastIndexOf('.');
      const stem = dot > path.lastIndexOf('/') + 1 ? path.slice(0, dot) : path;
      const extension = path.slice(stem.length);
      path = paths.free(path, (n) => `${stem}-${n}${extension}`);
    }
    if (paths.claim(path, subject) === undefined) continue;
    if (MARKDOWN.test(path)) {
      paths.problems.push({ subject, reason: `path ${path} would read back as a page` });
      continue;
    }
    files.push({
      id: file.id,
      path,
      name: path.slice(path.lastIndexOf('/') + 1),
      contentType: file.contentType ?? 'application/octet-stream',
      downloadURL: file.downloadURL,
      size: file.size,
    });
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return files;
}

/** The service's page types as docsync writes them; a computed or unknown type is written as a document. */
function kindOf(page: RevisionPage): 'document' | 'group' | 'link' {
  return page.type === 'group' || page.type === 'link' ? page.type : 'document';
}

function linkAddress(page: RevisionPage): string | undefined {
  const address = page.target?.kind === 'url' ? page.target.url : page.href;
  const trimmed = address?.trim();
  return trimmed === undefined || trimmed === '' || /[\r\n]/.test(trimmed) ? undefined : trimmed;
}

function subjectOf(page: RevisionPage): string {
  return `page "${oneLine(page.title ?? '') || page.slug || 'Untitled'}" (${page.id})`;
}

/** Titles are one line in a folder (a summary link, a heading). */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The tree to write, once every file's bytes are known (by file id; `missing` for a file without). */
export function treeOf(plan: ExportPlan, data: ReadonlyMap<string, Buffer>): DocsTree;
export function treeOf<M, D>(
  plan: ExportPlan<M>,
  data: ReadonlyMap<string, D>,
  missing: () => D,
): DocsTree<M, D>;
export function treeOf<M, D>(
  plan: ExportPlan<M>,
  data: ReadonlyMap<string, D>,
  missing: () => D = () => Buffer.alloc(0) as unknown as D,
): DocsTree<M, D> {
  return {
    pages: plan.pages,
    files: plan.files.map((file) => ({
      path: file.path,
      name: file.name,
      contentType: file.contentType,
      data: data.get(file.id) ?? missing(),
    })),
  };
}
