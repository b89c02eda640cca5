// The two readings of a docs folder that the differential test compares, in one normalised shape:
// what docsync predicts without the service (its bundle read as the dry-run preview reads it, the
// broken links the worker's link reading finds in it, placed in git by src/links/), and what the
// local service holds after the import (its page tree and files, and the broken links it reports,
// placed by docsync as `docsync once` places them). Only what a user sees is kept: titles, kinds,
// slugs, paths, nesting, order, source files and texts, and each broken link's file, line and target.
import { readFile } from 'node:fs/promises';
import { posix } from 'node:path';
import type { ContentTarget } from '../../../src/api/call-options.js';
import type { DocsApiClient } from '../../../src/api/docs-api-client.js';
import type { RevisionPage } from '../../../src/api/schemas/revision-page-schema.js';
import type { Revision } from '../../../src/api/schemas/revision-schema.js';
import { allDocuments, type DocsPage, type DocsTree } from '../../../src/content/docs-tree.js';
import { blobId } from '../../../src/content/folder-bytes.js';
import { readFolder } from '../../../src/content/folder-to-tree.js';
import type { GitbookLayout } from '../../../src/content/gitbook-layout.js';
import { classifyLink, findLinks } from '../../../src/content/markdown-links.js';
import { readZip } from '../../../src/content/read-zip.js';
import type { BrokenLink } from '../../../src/links/broken-link.js';
import { linkTarget } from '../../../src/links/link-target.js';
import type { GitFiles } from '../../../src/links/locate-broken-links.js';
import { placeBrokenLinks } from '../../../src/links/place-broken-links.js';
import { readBundlePages } from '../../../src/preview/bundle-pages.js';

/** A page as a reader of the site sees it; a placeholder is a document with no file (folder-format.md). */
export type NormalPage =
  | {
      type: 'document';
      title: string;
      slug: string;
      path: string;
      /** The source file in the bundle, and the git blob id of the page's text; absent for a placeholder. */
      file?: string;
      oid?: string;
      pages: NormalPage[];
    }
  | { type: 'group'; title: string; slug: string; path: string; pages: NormalPage[] }
  | { type: 'link'; title: string; href: string };

export interface NormalFile {
  path: string;
  name: string;
  contentType: string;
  size: number;
}

/** A broken link where docsync says it is written: `file:line:column` in git, or no line. */
export interface NormalBrokenLink {
  page: string;
  pageTitle: string;
  target: string;
  sourcePath: string | undefined;
  file: string | undefined;
  line: number | undefined;
  column: number | undefined;
}

export interface FolderReading {
  pages: NormalPage[];
  files: NormalFile[];
  broken: NormalBrokenLink[];
}

const BUNDLE_LIMITS = { maxBytes: 50 * 1024 * 1024, maxFileBytes: 50 * 1024 * 1024 };

/**
 * docsync's prediction from the bundle it would upload: the tree as the dry-run preview reads a
 * bundle (unlisted pages left out), and the links docsync's link reading judges broken in that tree,
 * one per page and address as the service lists them, placed in git by placeBrokenLinks in the files
 * gitPathOf names.
 */
export async function predictReading(
  bundle: string,
  git: { files: GitFiles; layout: GitbookLayout },
  appOrigin: string,
): Promise<FolderReading & { previewPaths: string[]; totalResources: number }> {
  const entries = await readZip(await readFile(bundle));
  // As bundle-pages.ts and the service leave them out: tool files are not content.
  const content = new Map([...entries].filter(([path]) => !/(^|\/)\.(?!gitbook\/)[^/]*$/.test(path)));
  const { tree } = readFolder(content, { unlisted: 'skip' });
  const preview = await readBundlePages(bundle, BUNDLE_LIMITS);
  // Placed in the file the link is written in: the bundle names the configured readme README.md and
  // its paths start at the layout's root, where git has them under their own names.
  const bundlePathOf = new Map<string, string>();
  const inGit = brokenLinksOf(tree, appOrigin).map((link) => {
    const sourcePath = gitPathOf(link.sourcePath ?? '', git.layout);
    bundlePathOf.set(sourcePath, link.sourcePath ?? '');
    return { ...link, sourcePath };
  });
  // Read and placed by this file's own reading of the layout (gitPathOf), not by locateBrokenLinks's:
  // the service's side goes through that one.
  const inFolder = [...bundlePathOf.keys()].map((path) => posix.join(git.files.folder, path));
  const texts = await git.files.read(inFolder);
  const sources = new Map([...bundlePathOf.keys()].map((path, at) => [path, texts.get(inFolder[at] ?? '')]));
  const broken = placeBrokenLinks(inGit, git.files.folder, sources).map((link) => ({
    ...link,
    sourcePath: bundlePathOf.get(link.sourcePath ?? ''),
  }));
  // What the archive holds and the import leaves out (tool files, markdown that is no page) counts
  // toward the total; the summary is neither.
  const documents = allDocuments(tree.pages).length;
  const left = entries.size - documents - tree.files.length - (entries.has('SUMMARY.md') ? 1 : 0);
  return {
    totalResources: countPages(normalTree(tree.pages)) + tree.files.length + left,
    pages: normalTree(tree.pages),
    files: tree.files.map((file) => ({
      path: file.path,
      name: file.name,
      contentType: file.contentType,
      size: file.data.length,
    })),
    broken: normalBroken(broken),
    previewPaths: preview.map((page) => page.path),
  };
}

/** The service's revision and docsync's placement of the broken links it reported, normalised. */
export function serviceReading(revision: Revision, broken: readonly BrokenLink[]): FolderReading {
  return {
    pages: (revision.pages ?? []).map(normalServicePage),
    files: (revision.files ?? []).map((file) => ({
      path: file.git?.path ?? '',
      name: file.name ?? '',
      contentType: file.contentType ?? '',
      size: file.size ?? -1,
    })),
    broken: normalBroken(broken),
  };
}

/**
 * Each page's own list of broken links (`GET .../content/page/{id}/links?status=broken`, which
 * docsync reads when the change request's list falls short), as `page path` and target pairs.
 */
export async function pageListBrokenLinks(
  api: DocsApiClient,
  target: ContentTarget,
  pages: readonly RevisionPage[],
): Promise<string[]> {
  const pairs: string[] = [];
  for (const page of pages) {
    if (page.type === 'document') {
      for await (const item of api.content.listPageLinksAll(target, page.id, { status: 'broken' }))
        pairs.push(`${page.path ?? ''} ${linkTarget(item.targetReference)}`);
    }
    pairs.push(...(await pageListBrokenLinks(api, target, page.pages ?? [])));
  }
  return pairs.sort(byText);
}

/** The distinct page and target pairs of broken links, as pageListBrokenLinks gives them. */
export function brokenPairs(links: readonly NormalBrokenLink[]): string[] {
  return [...new Set(links.map((link) => `${link.page} ${link.target}`))].sort(byText);
}

/** The site paths of documents and placeholders in reading order, as the dry-run preview lists them. */
export function documentPaths(pages: readonly NormalPage[]): string[] {
  return pages.flatMap((page) => {
    if (page.type === 'link') return [];
    return [...(page.type === 'document' ? [page.path] : []), ...documentPaths(page.pages)];
  });
}

/** Pages of every kind, nested ones included: each is a resource of the import. */
export function countPages(pages: readonly NormalPage[]): number {
  return pages.reduce((sum, page) => sum + 1 + (page.type === 'link' ? 0 : countPages(page.pages)), 0);
}

/** Where git holds a bundle's page: under the layout's root, the readme by its configured name. */
function gitPathOf(bundlePath: string, layout: GitbookLayout): string {
  const inRoot = bundlePath === 'README.md' ? layout.readme : bundlePath;
  return layout.root === '.' ? inRoot : posix.join(layout.root, inRoot);
}

function brokenLinksOf(tree: DocsTree, appOrigin: string): BrokenLink[] {
  const paths = sitePaths(tree.pages);
  return allDocuments(tree.pages).flatMap((page) => {
    const targets = new Set<string>();
    for (const { href } of findLinks(page.markdown)) {
      if (classifyLink(href, page.path, tree, { appOrigins: [appOrigin] }).status === 'broken')
        targets.add(href);
    }
    return [...targets].map((target) => ({
      pageId: page.path,
      pageTitle: page.title,
      pagePath: paths.get(page),
      sourcePath: page.path,
      target,
    }));
  });
}

function sitePaths(pages: readonly DocsPage[], parent = '', into = new Map<DocsPage, string>()) {
  for (const page of pages) {
    if (page.kind === 'link') continue;
    const path = parent === '' ? page.slug : `${parent}/${page.slug}`;
    into.set(page, path);
    sitePaths(page.pages, path, into);
  }
  return into;
}

function normalTree(pages: readonly DocsPage[], parent = ''): NormalPage[] {
  return pages.map((page): NormalPage => {
    if (page.kind === 'link') return { type: 'link', title: page.title, href: page.href };
    const path = parent === '' ? page.slug : `${parent}/${page.slug}`;
    const pages = normalTree(page.pages, path);
    const common = { title: page.title, slug: page.slug, path };
    if (page.kind === 'group') return { type: 'group', ...common, pages };
    if (page.kind === 'placeholder') return { type: 'document', ...common, pages };
    return {
      type: 'document',
      ...common,
      file: page.path,
      oid: blobId(Buffer.from(page.markdown), 40),
      pages,
    };
  });
}

function normalServicePage(page: RevisionPage): NormalPage {
  const title = page.title ?? '';
  if (page.type === 'link') return { type: 'link', title, href: page.target?.url ?? page.href ?? '' };
  const common = { title, slug: page.slug ?? '', path: page.path ?? '' };
  const pages = (page.pages ?? []).map(normalServicePage);
  if (page.type === 'group') return { type: 'group', ...common, pages };
  const git = page.git?.path === undefined ? {} : { file: page.git.path, oid: page.git.oid ?? '' };
  // Any other type is kept as the service gave it, for the diff to show.
  return { type: (page.type ?? 'no type') as 'document', ...common, ...git, pages };
}

function normalBroken(links: readonly BrokenLink[]): NormalBrokenLink[] {
  return links
    .map((link) => ({
      page: link.pagePath ?? '',
      pageTitle: link.pageTitle,
      target: link.target,
      sourcePath: link.sourcePath,
      file: link.file,
      line: link.line,
      column: link.column,
    }))
    .sort((a, b) => byText(placeOf(a), placeOf(b)));
}

function placeOf(link: NormalBrokenLink): string {
  const at = (n: number | undefined) => String(n ?? 0).padStart(6, '0');
  return `${link.file ?? ''}\0${at(link.line)}\0${at(link.column)}\0${link.page}\0${link.target}`;
}

function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
