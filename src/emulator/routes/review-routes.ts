// Reviews of a change request: list and submit (`/v1/spaces/{s}/change-requests/{cr}/reviews`),
// and get one (a local addition, so that the Location of a new review answers). Each submission is
// its own record: a reviewer's earlier reviews and other reviewers' reviews stay.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { callerOf, requireChangeRequest, requireSpace } from '../access.js';
import type { EmulatorContext } from '../emulator-context.js';
import { badRequest, notFound } from '../emulator-http-error.js';
import { nextSeq, type StoredComment, type StoredReview } from '../emulator-state.js';
import { newId } from '../ids.js';
import { pageOf } from '../page-list.js';
import { parseInput } from '../parse-input.js';
import { renderReview, reviewPath } from '../render/render-review.js';

const listQuery = z.looseObject({ page: z.string().optional(), limit: z.string().optional() });

const reviewSubmit = z.strictObject({
  status: z.enum(['approved', 'changes-requested']),
  /** A document, as comment bodies are; posted in the change request's thread. */
  comment: z.strictObject({ markdown: z.string().min(1) }).optional(),
});

/** A merged or archived change request is closed: its content can no longer be reviewed. */
const CLOSED_STATUSES: ReadonlySet<string> = new Set(['merged', 'archived']);

type Params = { s: string; cr: string; reviewId: string };

export function registerReviewRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const reviews = '/v1/spaces/:s/change-requests/:cr/reviews';

  app.get<{ Params: Params }>(reviews, async (request) => {
    const caller = callerOf(request);
    const space = requireSpace(ctx, caller, request.params.s, 'read', 'listing reviews');
    const changeRequest = requireChangeRequest(ctx, space, request.params.cr);
    const query = parseInput(listQuery, request.query, 'query');
    const items = Object.values(ctx.state.reviews).filter(
      (review) => review.changeRequestId === changeRequest.id,
    );
    return pageOf(items, query, (review) => renderReview(ctx, changeRequest, review));
  });

  app.post<{ Params: Params }>(reviews, async (request, reply) => {
    const caller = callerOf(request);
    const space = requireSpace(ctx, caller, request.params.s, 'review', 'reviewing a change request');
    const changeRequest = requireChangeRequest(ctx, space, request.params.cr);
    const body = parseInput(reviewSubmit, request.body, 'body');
    if (CLOSED_STATUSES.has(changeRequest.status))
      throw badRequest(
        `change request ${changeRequest.number} is ${changeRequest.status}: it cannot be reviewed`,
      );
    const now = ctx.now().toISOString();
    const review: StoredReview = {
      id: newId('rvw_'),
      seq: nextSeq(ctx.state),
      changeRequestId: changeRequest.id,
      reviewerId: caller.user.id,
      revision: changeRequest.revision,
      status: body.status,
      createdAt: now,
      updatedAt: now,
    };
    ctx.state.reviews[review.id] = review;
    if (body.comment !== undefined) {
      const comment: StoredComment = {
        id: newId('cmt_'),
        seq: nextSeq(ctx.state),
        spaceId: space.id,
        changeRequestId: changeRequest.id,
        postedBy: caller.user.id,
        postedAt: now,
        markdown: body.comment.markdown,
        status: 'open',
        reactions: [],
        target: {},
      };
      ctx.state.comments[comment.id] = comment;
    }
    ctx.changed();
    return reply
      .code(201)
      .header('location', reviewPath(changeRequest, review.id))
      .send(renderReview(ctx, changeRequest, review));
  });

  app.get<{ Params: Params }>(`${reviews}/:reviewId`, async (request) => {
    const caller = callerOf(request);
    const space = requireSpace(ctx, caller, request.params.s, 'read', 'reading a review');
    const changeRequest = requireChangeRequest(ctx, space, request.params.cr);
    const review = ctx.state.reviews[request.params.reviewId];
    if (review === undefined || review.changeRequestId !== changeRequest.id)
      throw notFound(`review ${request.params.reviewId}`);
    return renderReview(ctx, changeRequest, review);
  });
}
