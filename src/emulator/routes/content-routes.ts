// Space content and change request content: the same reads and the import, under
// `/v1/spaces/:s/content` and `/v1/spaces/:s/change-requests/:cr/content`.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CONTENT_FORMATS, IMPORT_SOURCES, LINK_STATUSES } from '../../api/schemas/service-enums.js';
import { requireChangeRequest, requireNamedSpace, requireRole } from '../access.js';
import { requireNotClosed } from '../change-request-closed.js';
import type { Caller, EmulatorContext } from '../emulator-context.js';
import { forbidden, notFound } from '../emulator-http-error.js';
import type { StoredChangeRequest, StoredRevision, StoredSpace } from '../emulator-state.js';
import { findRevisionPage } from '../find-revision-page.js';
import { applyImport, prepareImport } from '../import-content.js';
import { pageOf } from '../page-list.js';
import { parseInput } from '../parse-input.js';
import { renderFile, renderPage, renderRevision } from '../render/render-content.js';
import { pageLocation } from '../render/render-content-location.js';
import { pageLinks } from '../revision-links.js';
import { requireRevision } from '../revisions.js';
import { flattenPages } from '../stored-content.js';
import { linkList } from './link-list.js';

type Params = { s: string; cr?: string; fileId: string; pageId: string };

interface ContentTarget {
  caller: Caller;
  space: StoredSpace;
  cr: StoredChangeRequest | undefined;
  revision: StoredRevision;
}

const flags = {
  metadata: z.enum(['true', 'false']).optional(),
  computed: z.enum(['true', 'false']).optional(),
};
const contentQuery = z.looseObject(flags);
const listQuery = z.looseObject({ ...flags, page: z.string().optional(), limit: z.string().optional() });
const pageQuery = z.looseObject({ ...flags, format: z.enum(CONTENT_FORMATS).optional() });
const linksQuery = z.looseObject({
  page: z.string().optional(),
  limit: z.string().optional(),
  status: z.enum(LINK_STATUSES).optional(),
});
const importBody = z.strictObject({
  url: z.url({ protocol: /^https?$/ }).max(2048),
  source: z.enum(IMPORT_SOURCES),
});

export function registerContentRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  for (const prefix of ['/v1/spaces/:s/content', '/v1/spaces/:s/change-requests/:cr/content']) {
    app.get<{ Params: Params }>(prefix, async (request) => {
      parseInput(contentQuery, request.query, 'query');
      return renderRevision(ctx, target(ctx, request).revision);
    });

    app.get<{ Params: Params }>(`${prefix}/pages`, async (request) => {
      parseInput(contentQuery, request.query, 'query');
      return { pages: target(ctx, request).revision.pages.map((page) => renderPage(ctx, page)) };
    });

    app.get<{ Params: Params }>(`${prefix}/files`, async (request) => {
      const { revision } = target(ctx, request);
      const files = revision.files.map((file, i) => ({ file, seq: i + 1 }));
      return pageOf(files, parseInput(listQuery, request.query, 'query'), ({ file }) =>
        renderFile(ctx, revision.id, file),
      );
    });

    app.get<{ Params: Params }>(`${prefix}/files/:fileId`, async (request) => {
      parseInput(contentQuery, request.query, 'query');
      const { revision } = target(ctx, request);
      const file = revision.files.find((item) => item.id === request.params.fileId);
      if (file === undefined) throw notFound(`file ${request.params.fileId}`);
      return renderFile(ctx, revision.id, file);
    });

    app.get<{ Params: Params }>(`${prefix}/files/:fileId/backlinks`, async (request) => {
      const { caller, space, revision } = target(ctx, request);
      const file = revision.files.find((item) => item.id === request.params.fileId);
      if (file === undefined) throw notFound(`file ${request.params.fileId}`);
      const pages = flattenPages(revision.pages);
      const linking = pages.filter((page) =>
        pageLinks(ctx, revision, page).some(
          (link) => link.targetReference.kind === 'file' && link.targetReference.file === file.id,
        ),
      );
      const items = linking.map((page, i) => ({ page, seq: i + 1 }));
      // Each page that links to the file, as a ContentLocation.
      const scope = { ctx, caller, space, revision };
      return pageOf(items, parseInput(listQuery, request.query, 'query'), ({ page }) =>
        pageLocation(scope, page.id),
      );
    });

    app.get<{ Params: Params }>(`${prefix}/page/:pageId`, async (request) => {
      parseInput(pageQuery, request.query, 'query');
      const { revision } = target(ctx, request);
      const found = findRevisionPage(revision, request.params.pageId);
      if (found === undefined) throw notFound(`page ${request.params.pageId}`);
      const parentPath = found.path.includes('/') ? found.path.slice(0, found.path.lastIndexOf('/')) : '';
      return renderPage(ctx, found.page, parentPath);
    });

    app.get<{ Params: Params }>(`${prefix}/page/:pageId/links`, async (request) => {
      const query = parseInput(linksQuery, request.query, 'query');
      const { caller, space, cr, revision } = target(ctx, request);
      const found = findRevisionPage(revision, request.params.pageId);
      if (found === undefined) throw notFound(`page ${request.params.pageId}`);
      return linkList(ctx, caller, space, cr, pageLinks(ctx, revision, found.page), query);
    });

    app.post<{ Params: Params }>(`${prefix}/import`, async (request, reply) => {
      checkImportTarget(ctx, request);
      const body = parseInput(importBody, request.body, 'body');
      const prepared = await prepareImport(ctx, body.url, body.source);
      // The fetch took time: a merge, a delete or another import may have happened meanwhile. Check
      // the target again and apply on its current revision, with no await from here on.
      const { caller, space, cr, revision } = checkImportTarget(ctx, request);
      const result = applyImport(ctx, revision, prepared);
      const now = ctx.now().toISOString();
      if (cr === undefined) {
        space.revision = result.revision.id;
        space.updatedAt = now;
      } else {
        cr.revision = result.revision.id;
        cr.updatedAt = now;
        if (!cr.contributors.includes(caller.user.id)) cr.contributors.push(caller.user.id);
      }
      ctx.changed();
      return reply.code(201).send({
        revision: result.revision.id,
        importedResources: result.importedResources,
        totalResources: result.totalResources,
      });
    });
  }
}

/** The target of an import, if the caller may import into it now. */
function checkImportTarget(ctx: EmulatorContext, request: FastifyRequest<{ Params: Params }>): ContentTarget {
  const found = target(ctx, request);
  const { caller, space, cr } = found;
  requireRole(caller, space.orgId, 'edit', 'importing content');
  if (cr === undefined && space.editMode === 'locked')
    throw forbidden(`space ${space.id} is locked: edits go through change requests`);
  if (cr !== undefined) requireNotClosed(cr, 'edited');
  return found;
}

function target(ctx: EmulatorContext, request: FastifyRequest<{ Params: Params }>): ContentTarget {
  const { caller, space } = requireNamedSpace(ctx, request, 'read', 'reading content');
  const cr =
    request.params.cr === undefined ? undefined : requireChangeRequest(ctx, space, request.params.cr);
  return { caller, space, cr, revision: requireRevision(ctx, cr?.revision ?? space.revision) };
}
