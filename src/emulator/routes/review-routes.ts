// Reviews of a change request: list and submit (`/v1/spaces/{s}/change-requests/{cr}/reviews`),
// and get one (a local addition, so that the Location of a new review answers). Each submission is
// its own record: a reviewer's earlier reviews and other reviewers' reviews stay.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { REVIEW_STATUSES } from '../../api/schemas/service-enums.js';
import { requireNamedChangeRequest } from '../access.js';
import { requireNotClosed } from '../change-request-closed.js';
import type { EmulatorContext } from '../emulator-context.js';
import { notFound } from '../emulator-http-error.js';
import { nextSeq, type StoredComment, type StoredReview } from '../emulator-state.js';
import { newId } from '../ids.js';
import { pageOf } from '../page-list.js';
import { parseInput } from '../parse-input.js';
import { newPost } from '../posts.js';
import { renderReview, reviewPath } from '../render/render-review.js';

const listQuery = z.looseObject({ page: z.string().optional(), limit: z.string().optional() });

const reviewSubmit = z.strictObject({
  status: z.enum(REVIEW_STATUSES),
  /** A document, as comment bodies are; posted in the change request's thread. */
  comment: z.strictObject({ markdown: z.string().min(1) }).optional(),
});

type Params = { s: string; cr: string; reviewId: string };

export function registerReviewRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const reviews = '/v1/spaces/:s/change-requests/:cr/reviews';

  app.get<{ Params: Params }>(reviews, async (request) => {
    const { cr } = requireNamedChangeRequest(ctx, request, 'read', 'listing reviews');
    const query = parseInput(listQuery, request.query, 'query');
    const items = Object.values(ctx.state.reviews).filter((review) => review.changeRequestId === cr.id);
    return pageOf(items, query, (review) => renderReview(ctx, cr, review));
  });

  app.post<{ Params: Params }>(reviews, async (request, reply) => {
    const { caller, space, cr } = requireNamedChangeRequest(
      ctx,
      request,
      'review',
      'reviewing a change request',
    );
    const body = parseInput(reviewSubmit, request.body, 'body');
    requireNotClosed(cr, 'reviewed');
    const now = ctx.now().toISOString();
    const review: StoredReview = {
      id: newId('rvw_'),
      seq: nextSeq(ctx.state),
      changeRequestId: cr.id,
      reviewerId: caller.user.id,
      revision: cr.revision,
      status: body.status,
      createdAt: now,
      updatedAt: now,
    };
    ctx.state.reviews[review.id] = review;
    if (body.comment !== undefined) {
      const comment: StoredComment = {
        ...newPost(ctx, 'cmt_', caller.user.id, body.comment, now),
        spaceId: space.id,
        changeRequestId: cr.id,
        status: 'open',
        target: {},
      };
      ctx.state.comments[comment.id] = comment;
    }
    ctx.changed();
    return reply
      .code(201)
      .header('location', reviewPath(cr, review.id))
      .send(renderReview(ctx, cr, review));
  });

  app.get<{ Params: Params }>(`${reviews}/:reviewId`, async (request) => {
    const { cr } = requireNamedChangeRequest(ctx, request, 'read', 'reading a review');
    const review = ctx.state.reviews[request.params.reviewId];
    if (review === undefined || review.changeRequestId !== cr.id)
      throw notFound(`review ${request.params.reviewId}`);
    return renderReview(ctx, cr, review);
  });
}
