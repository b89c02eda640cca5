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
import { safeRelativePath } from '../content/safe-relative-path.js';
import type { ExportPathProblem } from './export-path-error.js';
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
  const readme = options.readme ?? SERVICE_README;
  const existing = options.existing ?? new Set<string>();
  const problems: ExportPathProblem[] = [];
  const claimed = new Map<string, { path: string; subject: string }>();
  const existingKeys = new Set([...existing].map((path) => path.toLowerCase()));

  const normalised = (raw: string, subject: string): string | undefined => {
    try {
      const path = safeRelativePath(raw, { subject: 'path', root: "mapping's folder" });
      return path === SERVICE_README ? readme : path;
    } catch (error) {
      problems.push({ subject, reason: (error as Error).message });
      return undefined;
    }
  };
  const claim = (path: string, subject: string): string | undefined => {
    const key = path.toLowerCase();
    const other = claimed.get(key);
    // Case-insensitive file systems (macOS, Windows) would make these one file; git already holding
    // both exact paths means exporting them as they are makes nothing worse.
    if (other !== undefined && (other.path === path || !(existing.has(path) && existing.has(other.path)))) {
      problems.push({ subject, reason: `path ${path} is also the path of ${other.subject}` });
      return undefined;
    }
    if (other === undefined) claimed.set(key, { path, subject });
    return path;
  };
  /** `wanted`, or the first of `variant(2)`, `variant(3)`... that nothing claims and git does not hold. */
  const free = (wanted: string, variant: (n: number) => string): string => {
    let path = wanted;
    for (let n = 2; claimed.has(path.toLowerCase()) || existingKeys.has(path.toLowerCase()); n += 1)
      path = variant(n);
    return path;
  };

  // Source paths first, wherever their pages are: a derived path must not take one of them.
  const sourcePaths = new Map<RevisionPage, string>();
  const claimSources = (pages: readonly RevisionPage[]): void => {
    for (const page of pages) {
      const raw = page.git?.path;
      if (raw !== undefined && kindOf(page) === 'document') {
        const subject = subjectOf(page);
        const path = normalised(raw, subject);
        if (path !== undefined && claim(path, subject) !== undefined) sourcePaths.set(page, path);
        if (path !== undefined && !MARKDOWN.test(path))
          problems.push({ subject, reason: `path ${path} does not end in .md` });
      }
      claimSources(page.pages ?? []);
    }
  };
  claimSources(revision.pages ?? []);
  const firstPageHasFile = [...sourcePaths.values()].includes(readme);

  // The readme can only be the first entry of the summary (a group heading aside).
  let firstEntry = true;
  const isReadme = (path: string) => path === readme || /(?:^|\/)readme\.md$/i.test(path);
  // Only files git holds for the space (a person's layout) decide where a new page goes.
  const siblingFolders = (pages: readonly RevisionPage[]) =>
    pages.map((page) => {
      const path = sourcePaths.get(page);
      return path === undefined
        ? undefined
        : folderOfSibling(path, (page.pages ?? []).length > 0, isReadme(path));
    });
  /** `parentFolder`: where these pages go, when none of them has a file (new-page-folder.ts). */
  const visit = (
    pages: readonly RevisionPage[],
    parentSite: string,
    depth: 'top' | 'group' | 'nested',
    parentFolder: string | undefined,
  ): DocsPage<M>[] => {
    const siblings = siblingFolders(pages);
    return pages.flatMap((page, index): DocsPage<M>[] => {
      const title = oneLine(page.title ?? '') || page.slug || 'Untitled';
      const slug = page.slug ?? '';
      const subject = subjectOf(page);
      const kind = kindOf(page);
      const site =
        page.path ?? (parentSite === '' ? (page.slug ?? page.id) : `${parentSite}/${page.slug ?? page.id}`);
      const children = page.pages ?? [];
      const id = { id: page.id };
      if (kind === 'group') {
        if (depth !== 'top') problems.push({ subject, reason: 'is a group below the top level' });
        // A group is a heading of the summary, not a folder: its pages' derived paths ignore it.
        return [
          { kind: 'group', ...id, title, slug, pages: visit(children, parentSite, 'group', undefined) },
        ];
      }
      const first = firstEntry;
      firstEntry = false;
      if (kind === 'link') {
        const href = linkAddress(page);
        if (href === undefined) {
          problems.push({ subject, reason: 'is a link without an address a summary can hold' });
          return [];
        }
        if (!ADDRESS.test(href)) {
          problems.push({
            subject,
            reason: `links to ${href}, which a summary would read as a file of the folder: give it a full address (https://…)`,
          });
          return [];
        }
        return [{ kind: 'link', ...id, title, slug, href }];
      }
      const markdown = text.of(page);
      let path = sourcePaths.get(page);
      // Where this page's children go when none of them has a file: beside its own file, or, for a
      // page with a derived path, derived as well (today's paths for a space made in the service).
      let childFolder = path === undefined ? undefined : folderOfChildren(path);
      if (page.git?.path === undefined) {
        const folder =
          first && !firstPageHasFile ? undefined : newPageFolder({ siblings, index, parent: parentFolder });
        const placed =
          folder === undefined ? undefined : newPagePath(folder, page.slug || page.id, children.length > 0);
        // Made in the service with no content: an entry with a title and no file; its children go
        // where its file would have gone, in a folder of its own.
        if (text.blank(markdown)) {
          const nested = visit(children, site, 'nested', placed && folderOfChildren(placed.wanted));
          return [{ kind: 'placeholder', ...id, title, slug, pages: nested }];
        }
        const derived =
          first && !firstPageHasFile
            ? readme
            : placed !== undefined
              ? free(placed.wanted, placed.variant)
              : free(children.length > 0 ? `${site}/README.md` : `${site}.md`, (n) =>
                  children.length > 0 ? `${site}-${n}/README.md` : `${site}-${n}.md`,
                );
        const checked = normalised(derived, subject);
        path = checked === undefined ? undefined : claim(checked, subject);
        childFolder = path !== undefined && placed !== undefined ? folderOfChildren(path) : undefined;
      }
      // Children after their parent: a new child placed beside its parent needs the parent's path.
      const nested = visit(children, site, 'nested', childFolder);
      if (path === undefined) return [];
      return [{ ...id, path, title, slug, markdown, pages: nested }];
    });
  };
  const pages = visit(revision.pages ?? [], '', 'top', undefined);

  const files: PlannedFile[] = [];
  for (const file of revision.files ?? []) {
    const name = file.name ?? file.id;
    const subject = `file ${name} (${file.id})`;
    const source = file.git?.path;
    const raw = source ?? `${ASSETS_FOLDER}/${name}`;
    let path = normalised(raw, subject);
    if (path === undefined) continue;
    if (source === undefined) {
      const dot = path.lastIndexOf('.');
      const stem = dot > path.lastIndexOf('/') + 1 ? path.slice(0, dot) : path;
      const extension = path.slice(stem.length);
      path = free(path, (n) => `${stem}-${n}${extension}`);
    }
    if (claim(path, subject) === undefined) continue;
    if (MARKDOWN.test(path)) {
      problems.push({ subject, reason: `path ${path} would read back as a page` });
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
  return { pages, files, problems };
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
