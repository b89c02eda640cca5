// `GET /app/s/{space}/change-requests/{number}`: the address a change request's `urls.app` gives,
// answered with a readable page of it (subject, number, status, pages changed), so that the links of
// the demo's status page and of the link comment open something, not a 404. A browser brings no
// bearer token: like the download addresses of files, the page is reached by the space's
// unguessable id; a deleted space and an unknown number answer 404.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { changeRequestsOfSpace } from '../change-request-index.js';
import type { EmulatorContext } from '../emulator-context.js';
import { notFound } from '../emulator-http-error.js';
import { changedPages, pageCount } from '../render/changed-pages.js';
import { isOutdated } from '../render/render-change-request.js';
import { renderChangeRequestPage } from '../render/render-change-request-page.js';
import { requireRevision } from '../revisions.js';

const params = z.object({
  s: z.string(),
  number: z
    .string()
    .regex(/^[1-9][0-9]{0,8}$/)
    .transform(Number),
});

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

export function registerChangeRequestPageRoute(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get('/app/s/:s/change-requests/:number', async (request, reply) => {
    const parsed = params.safeParse(request.params);
    // An address that cannot name a change request is a page that does not exist.
    if (!parsed.success) throw notFound('change request');
    const { s, number } = parsed.data;
    const space = ctx.state.spaces[s];
    if (space === undefined || space.deletedAt !== undefined) throw notFound(`space ${s}`);
    const cr = changeRequestsOfSpace(ctx.state, s).find((item) => item.number === number);
    if (cr === undefined) throw notFound(`change request #${number} of space ${s}`);
    // A merged change request is read against the main content it was last brought up to date with.
    const base = requireRevision(ctx, cr.revisionMergedAncestor ?? cr.revisionInitial);
    const head = requireRevision(ctx, cr.revision);
    const page = renderChangeRequestPage({
      space,
      changeRequest: cr,
      outdated: isOutdated(ctx, cr),
      changes: changedPages(base.pages, head.pages),
      pageCount: pageCount(head.pages),
    });
    return reply.code(200).headers(PAGE_HEADERS).send(page);
  });
}
