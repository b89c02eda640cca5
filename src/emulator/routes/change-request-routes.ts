// Change requests: list (status, contributor), create, get by id or number, patch (subject,
// status), update from the main content, merge into it, and a PDF address.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { CHANGE_REQUEST_STATUSES, type ChangeRequestStatus } from '../../api/schemas/service-enums.js';
import { requireNamedChangeRequest, requireNamedSpace, requireRole } from '../access.js';
import { requireNotClosed } from '../change-request-closed.js';
import { changeRequestsOfSpace } from '../change-request-index.js';
import type { EmulatorContext } from '../emulator-context.js';
import { badRequest } from '../emulator-http-error.js';
import { nextSeq, type StoredChangeRequest } from '../emulator-state.js';
import { newId } from '../ids.js';
import { mergeTrees } from '../merge-trees.js';
import { pageOf } from '../page-list.js';
import { parseInput } from '../parse-input.js';
import { isOutdated, renderChangeRequest } from '../render/render-change-request.js';
import { createRevision, requireRevision } from '../revisions.js';
import { storedToTree, treeToStored } from '../stored-content.js';

const listQuery = z.looseObject({
  page: z.string().optional(),
  limit: z.string().optional(),
  status: z.enum(CHANGE_REQUEST_STATUSES).default('open'),
  contributor: z.string().optional(),
});
const createBody = z.strictObject({ subject: z.string().max(100).optional() });
const patchBody = z.strictObject({
  subject: z.string().max(100).optional(),
  status: z.enum(CHANGE_REQUEST_STATUSES).optional(),
});
const pdfQuery = z.looseObject({ only: z.enum(['true', 'false']).optional(), page: z.string().optional() });

/** Status moves PATCH allows; `merged` is reached only by merging. */
const MOVES: Record<ChangeRequestStatus, readonly ChangeRequestStatus[]> = {
  draft: ['open', 'archived'],
  open: ['draft', 'archived'],
  archived: ['open', 'draft'],
  merged: [],
};

type Params = { s: string; cr: string };

export function registerChangeRequestRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  registerChangeRequestRecordRoutes(app, ctx);
  registerChangeRequestActionRoutes(app, ctx);
}

/** Change requests: list, create, get and patch. */
function registerChangeRequestRecordRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get<{ Params: Params }>('/v1/spaces/:s/change-requests', async (request) => {
    const { space } = requireNamedSpace(ctx, request, 'read', 'listing change requests');
    const query = parseInput(listQuery, request.query, 'query');
    const items = changeRequestsOfSpace(ctx.state, space.id).filter(
      (cr) =>
        cr.status === query.status &&
        (query.contributor === undefined || cr.contributors.includes(query.contributor)),
    );
    return pageOf(items, query, (cr) => renderChangeRequest(ctx, cr), 'desc');
  });

  app.post<{ Params: Params }>('/v1/spaces/:s/change-requests', async (request, reply) => {
    const { caller, space } = requireNamedSpace(ctx, request, 'edit', 'creating a change request');
    const body = parseInput(createBody, request.body, 'body');
    const now = ctx.now().toISOString();
    space.changeRequestCount += 1;
    const cr: StoredChangeRequest = {
      id: newId('cr_'),
      seq: nextSeq(ctx.state),
      spaceId: space.id,
      number: space.changeRequestCount,
      // Made ready for review: a draft is what PATCH {status: draft} is for.
      status: 'open',
      subject: body.subject ?? '',
      createdBy: caller.user.id,
      createdAt: now,
      updatedAt: now,
      revision: space.revision,
      revisionInitial: space.revision,
      contributors: [],
    };
    ctx.state.changeRequests[cr.id] = cr;
    ctx.changed();
    return reply
      .code(201)
      .header('location', `/v1/spaces/${space.id}/change-requests/${cr.id}`)
      .send(renderChangeRequest(ctx, cr));
  });

  app.get<{ Params: Params }>('/v1/spaces/:s/change-requests/:cr', async (request) => {
    const { cr } = requireNamedChangeRequest(ctx, request, 'read', 'reading a change request');
    return renderChangeRequest(ctx, cr);
  });

  app.patch<{ Params: Params }>('/v1/spaces/:s/change-requests/:cr', async (request) => {
    const { cr } = requireNamedChangeRequest(ctx, request, 'edit', 'changing a change request');
    const body = parseInput(patchBody, request.body, 'body');
    if (body.status !== undefined && body.status !== cr.status && !MOVES[cr.status].includes(body.status)) {
      throw badRequest(
        `status: a ${cr.status} change request cannot become ${body.status}${body.status === 'merged' ? ': merge it instead' : ''}`,
      );
    }
    if (cr.status === 'merged' && body.subject !== undefined)
      throw badRequest('subject: a merged change request cannot be changed');
    if (body.subject !== undefined) cr.subject = body.subject;
    if (body.status !== undefined) cr.status = body.status;
    cr.updatedAt = ctx.now().toISOString();
    ctx.changed();
    return renderChangeRequest(ctx, cr);
  });
}

/** What is done to a change request: its update, its merge, and its PDF. */
function registerChangeRequestActionRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.post<{ Params: Params }>('/v1/spaces/:s/change-requests/:cr/update', async (request) => {
    const { space, cr } = requireNamedChangeRequest(ctx, request, 'edit', 'updating a change request');
    requireNotClosed(cr, 'updated');
    if (isOutdated(ctx, cr)) {
      cr.revision = mergedRevision(ctx, cr, space.revision).id;
      cr.updatedAt = ctx.now().toISOString();
    }
    // Current with the main content either way: this is the ancestor it was last brought up to.
    cr.revisionMergedAncestor = space.revision;
    ctx.changed();
    return { revision: cr.revision, result: 'update' };
  });

  app.post<{ Params: Params }>('/v1/spaces/:s/change-requests/:cr/merge', async (request) => {
    const { caller, space, cr } = requireNamedChangeRequest(
      ctx,
      request,
      'review',
      'merging a change request',
    );
    requireNotClosed(cr, 'merged');
    requireRole(caller, space.orgId, 'review', 'merging a change request');
    // The main content becomes the change request's content applied on top of it.
    const merged = mergedRevision(ctx, cr, space.revision);
    const now = ctx.now().toISOString();
    space.revision = merged.id;
    space.updatedAt = now;
    cr.status = 'merged';
    cr.revisionMerged = merged.id;
    cr.updatedAt = now;
    ctx.changed();
    return { revision: merged.id, result: 'merge' };
  });

  app.get<{ Params: Params }>('/v1/spaces/:s/change-requests/:cr/pdf', async (request) => {
    const { cr } = requireNamedChangeRequest(ctx, request, 'read', 'exporting a change request as PDF');
    const query = parseInput(pdfQuery, request.query, 'query');
    const page =
      query.only === 'true' && query.page !== undefined ? `?page=${encodeURIComponent(query.page)}` : '';
    return { url: `${ctx.origin()}/_emulator/pdf/${cr.id}${page}` };
  });
}

/** A new revision: the change request's edits since its base, applied on the main content. */
function mergedRevision(ctx: EmulatorContext, cr: StoredChangeRequest, mainRevisionId: string) {
  const base = requireRevision(ctx, cr.revisionMergedAncestor ?? cr.revisionInitial);
  const ours = requireRevision(ctx, cr.revision);
  const theirs = requireRevision(ctx, mainRevisionId);
  if (base.id === theirs.id)
    return createRevision(ctx, { parents: [theirs.id, ours.id], pages: ours.pages, files: ours.files });
  const tree = mergeTrees(storedToTree(base), storedToTree(ours), storedToTree(theirs));
  return createRevision(ctx, {
    parents: [theirs.id, ours.id],
    ...treeToStored(tree, ours, ctx.now().toISOString()),
  });
}
