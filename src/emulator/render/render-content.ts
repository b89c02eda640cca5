// Revisions, pages and files as the interface shows them. A page's `path` is its place on the site
// (slugs joined with `/`); `git.path` is its source file in the docs folder.
import type { EmulatorContext } from '../emulator-context.js';
import type { StoredFile, StoredPage, StoredRevision } from '../emulator-state.js';

export function renderPage(ctx: EmulatorContext, page: StoredPage, parentPath = '') {
  const path = parentPath === '' ? page.slug : `${parentPath}/${page.slug}`;
  const rendered: Record<string, unknown> = {
    id: page.id,
    title: page.title,
    kind: 'sheet',
    type: 'document',
    createdAt: page.createdAt,
    updatedAt: page.updatedAt,
    markdown: page.markdown,
    urls: { app: `${ctx.origin()}/app/p/${page.id}` },
    slug: page.slug,
    path,
    git: { path: page.sourcePath },
    pages: page.pages.map((child) => renderPage(ctx, child, path)),
  };
  return rendered;
}

export function renderFile(ctx: EmulatorContext, revisionId: string, file: StoredFile) {
  return {
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    downloadURL: `${ctx.origin()}/_emulator/files/${revisionId}/${file.id}`,
    size: file.size,
    git: { path: file.sourcePath },
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
    type: revision.parents.length > 1 ? 'merge' : 'edits',
    urls: {
      app: `${origin}/app/r/${revision.id}`,
      published: `${origin}/published/r/${revision.id}`,
      public: `${origin}/public/r/${revision.id}`,
    },
  };
}
