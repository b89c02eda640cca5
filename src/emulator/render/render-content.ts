// Revisions, pages and files as the interface shows them. A page's `path` is its place on the site
// (slugs joined with `/`, a group's included); `git` is a document's source file in the docs folder
// with its blob id. Members the public document requires and the interface does not name get the
// service's defaults: a page's `layout`, a revision's `mergedFrom`.
import { createHash } from 'node:crypto';
import type { EmulatorContext } from '../emulator-context.js';
import type { StoredFile, StoredPage, StoredRevision } from '../emulator-state.js';
import { renderChangeRequest } from './render-change-request.js';

/** The layout a document page gets in the service when nobody changed it: every part shown. */
const DEFAULT_LAYOUT = {
  width: 'default',
  cover: true,
  coverSize: 'hero',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
} as const;

/** Git's (sha1) blob id of the bytes, as the service's git sync records it for a page or a file. */
function gitOid(bytes: Buffer): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/**
 * A page as the public document's RevisionPage: a group (`type: 'group'`, its pages), a link
 * (`type: 'link'`, `target: {kind: 'url', url}` and `href`, no slug or path) or a document, with
 * `git.path` only when it was read from a file.
 */
export function renderPage(ctx: EmulatorContext, page: StoredPage, parentPath = ''): Record<string, unknown> {
  const common = { id: page.id, title: page.title, createdAt: page.createdAt, updatedAt: page.updatedAt };
  if (page.type === 'link') {
    const url = page.href ?? '';
    return { ...common, kind: 'link', type: 'link', target: { kind: 'url', url }, href: url };
  }
  const path = parentPath === '' ? page.slug : `${parentPath}/${page.slug}`;
  const pages = page.pages.map((child) => renderPage(ctx, child, path));
  if (page.type === 'group') return { ...common, kind: 'group', type: 'group', slug: page.slug, path, pages };
  return {
    ...common,
    kind: 'sheet',
    type: 'document',
    markdown: page.markdown,
    urls: { app: `${ctx.origin()}/app/p/${page.id}` },
    slug: page.slug,
    path,
    ...(page.sourcePath === undefined
      ? {}
      : { git: { oid: gitOid(Buffer.from(page.markdown)), path: page.sourcePath } }),
    layout: DEFAULT_LAYOUT,
    pages,
  };
}

export function renderFile(ctx: EmulatorContext, revisionId: string, file: StoredFile) {
  return {
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    downloadURL: `${ctx.origin()}/_emulator/files/${revisionId}/${file.id}`,
    size: file.size,
    git: { oid: gitOid(Buffer.from(file.data, 'base64')), path: file.sourcePath },
  };
}

export function renderRevision(ctx: EmulatorContext, revision: StoredRevision) {
  const origin = ctx.origin();
  return {
    object: 'revision' as const,
    id: revision.id,
    parents: revision.parents,
    pages: revision.pages.map((page) => renderPage(ctx, page)),
    files: revision.files.map((file) => renderFile(ctx, revision.id, file)),
    reusableContents: [],
    createdAt: revision.createdAt,
    ...revisionType(ctx, revision),
    urls: {
      app: `${origin}/app/r/${revision.id}`,
      published: `${origin}/published/r/${revision.id}`,
      public: `${origin}/public/r/${revision.id}`,
    },
  };
}

/**
 * What made the revision: merging a change request (`mergedFrom`, the change request), bringing a
 * change request up to date with the main content (two parents, no merge), or edits and imports.
 */
function revisionType(ctx: EmulatorContext, revision: StoredRevision) {
  const merged = Object.values(ctx.state.changeRequests).find((cr) => cr.revisionMerged === revision.id);
  if (merged !== undefined) return { type: 'merge' as const, mergedFrom: renderChangeRequest(ctx, merged) };
  return { type: revision.parents.length > 1 ? ('update' as const) : ('edits' as const) };
}
