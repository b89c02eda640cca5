// A space's revision as the folder export writes: each page at the source path the service keeps
// for it (`git.path`, set when it came from a folder) or, for a page made in the service, at a path
// derived from its place on the site (`guides/install.md`, `guides/README.md` for a page with
// children); each file at its `git.path` or under `.gitbook/assets/`. Every path goes through
// safeRelativePath; all offenders are collected and named together.
import type { RevisionPage } from '../api/schemas/revision-page-schema.js';
import type { Revision } from '../api/schemas/revision-schema.js';
import type { DocsPage, DocsTree } from '../content/docs-tree.js';
import { safeRelativePath } from '../content/safe-relative-path.js';
import type { ExportPathProblem } from './export-path-error.js';

/** A file to download before writing: where it goes and where to get it. */
export interface PlannedFile {
  id: string;
  path: string;
  name: string;
  contentType: string;
  downloadURL: string | undefined;
  size: number | undefined;
}

export interface ExportPlan {
  /** Pages with their markdown (`undefined` markdown: read the page on its own); files still to fetch. */
  pages: DocsPage[];
  /** Pages whose markdown the revision did not carry, by id. */
  missingMarkdown: string[];
  files: PlannedFile[];
  problems: ExportPathProblem[];
}

export const ASSETS_FOLDER = '.gitbook/assets';

export function planExport(revision: Revision): ExportPlan {
  const problems: ExportPathProblem[] = [];
  const claimed = new Map<string, string>();
  const missingMarkdown: string[] = [];
  const claim = (raw: string, subject: string): string | undefined => {
    let path: string;
    try {
      path = safeRelativePath(raw, { subject: 'path', root: "mapping's folder" });
    } catch (error) {
      problems.push({ subject, reason: (error as Error).message });
      return undefined;
    }
    const key = path.toLowerCase();
    const other = claimed.get(key);
    if (other !== undefined) {
      // Case-insensitive file systems (macOS, Windows) would make these one file.
      problems.push({ subject, reason: `path ${path} is also the path of ${other}` });
      return undefined;
    }
    claimed.set(key, subject);
    return path;
  };

  const visit = (pages: readonly RevisionPage[], parentSite: string, topLevel: boolean): DocsPage[] =>
    pages.flatMap((page, index) => {
      const title = oneLine(page.title ?? '') || page.slug || 'Untitled';
      const subject = `page "${title}" (${page.id})`;
      const site =
        page.path ?? (parentSite === '' ? (page.slug ?? page.id) : `${parentSite}/${page.slug ?? page.id}`);
      const children = page.pages ?? [];
      const raw =
        page.git?.path ??
        (topLevel && index === 0 ? 'README.md' : children.length > 0 ? `${site}/README.md` : `${site}.md`);
      const path = claim(raw, subject);
      if (path !== undefined && !/\.md$/i.test(path))
        problems.push({ subject, reason: `path ${path} does not end in .md` });
      if (page.markdown === undefined) missingMarkdown.push(page.id);
      const nested = visit(children, site, false);
      if (path === undefined) return [];
      return [
        { id: page.id, path, title, slug: page.slug ?? '', markdown: page.markdown ?? '', pages: nested },
      ];
    });
  const pages = visit(revision.pages ?? [], '', true);

  const files: PlannedFile[] = [];
  for (const file of revision.files ?? []) {
    const name = file.name ?? file.id;
    const subject = `file ${name} (${file.id})`;
    const path = claim(file.git?.path ?? `${ASSETS_FOLDER}/${name}`, subject);
    if (path === undefined) continue;
    if (/\.md$/i.test(path)) {
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
  return { pages, missingMarkdown, files, problems };
}

/** Titles are one line in a folder (a summary link, a heading). */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The tree to write, once every file's bytes are known. */
export function treeOf(plan: ExportPlan, data: ReadonlyMap<string, Buffer>): DocsTree {
  return {
    pages: plan.pages,
    files: plan.files.map((file) => ({
      path: file.path,
      name: file.name,
      contentType: file.contentType,
      data: data.get(file.id) ?? Buffer.alloc(0),
    })),
  };
}
