import { describe, expect, it } from 'vitest';
import { userIdOf } from '../../../src/emulator/create-emulator.js';
import {
  addChangeRequest,
  addRevision,
  callApi,
  createTestSpace,
  startTestEmulator,
  testPage,
} from '../../support/start-test-emulator.js';

interface Review {
  object: string;
  id: string;
  revision: string;
  reviewer: { id: string; displayName: string };
  status: string;
  outdated: boolean;
  createdAt: string;
  updatedAt: string;
}
interface Page<T> {
  next?: { page: string };
  count: number;
  items: T[];
}

// Change requests are written into the state (addChangeRequest): the change request routes are
// another group; the records are the same.
describe('change request reviews of the local service', async () => {
  const test = await startTestEmulator();
  const { admin, reviewer, commenter, reader } = test.tokens;
  const spaceId = await createTestSpace(test);
  const newChangeRequest = () => addChangeRequest(test.emulator, spaceId, userIdOf('Carl Commenter'));
  const reviewsOf = (cr: string | number) =>
    `${test.baseUrl}/spaces/${spaceId}/change-requests/${cr}/reviews`;
  const submit = (token: string, cr: string | number, body: unknown) =>
    callApi<Review>(reviewsOf(cr), token, 'POST', body);
  const list = async (cr: string | number, query = '') =>
    (await callApi<Page<Review>>(`${reviewsOf(cr)}${query}`, reader)).body;

  it('submits a review (201) of the current revision, with a Location that answers', async () => {
    const changeRequest = newChangeRequest();
    const answer = await submit(reviewer, changeRequest.number, { status: 'approved' });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      object: 'change-request-review',
      id: expect.any(String),
      revision: changeRequest.revision,
      reviewer: expect.objectContaining({ object: 'user', displayName: 'Rita Reviewer' }),
      status: 'approved',
      outdated: false,
      createdAt: expect.any(String),
      updatedAt: answer.body.createdAt,
    });
    const location = answer.headers.get('location');
    expect(location).toBe(
      `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/reviews/${answer.body.id}`,
    );
    const fetched = await callApi<Review>(`${test.origin}${location}`, reader);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(answer.body);
    expect((await list(changeRequest.id)).items).toEqual([answer.body]);
  });

  it('needs the review role: 403 for comment and read, 401 without a token', async () => {
    const changeRequest = newChangeRequest();
    expect((await submit(commenter, changeRequest.id, { status: 'approved' })).status).toBe(403);
    expect((await submit(reader, changeRequest.id, { status: 'approved' })).status).toBe(403);
    expect(
      (await callApi(reviewsOf(changeRequest.id), undefined, 'POST', { status: 'approved' })).status,
    ).toBe(401);
    expect((await submit(admin, changeRequest.id, { status: 'changes-requested' })).status).toBe(201);
    expect((await list(changeRequest.id)).count).toBe(1);
  });

  it('refuses malformed bodies and unknown change requests, creating nothing', async () => {
    const changeRequest = newChangeRequest();
    for (const body of [
      {},
      { status: 'rejected' },
      { status: 'approved', extra: 1 },
      { status: 'approved', comment: { markdown: '' } },
      // A comment is a document, not a bare string.
      { status: 'approved', comment: 'lgtm' },
    ]) {
      const answer = await callApi<{ error: { code: number } }>(
        reviewsOf(changeRequest.id),
        reviewer,
        'POST',
        body,
      );
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe(400);
    }
    expect((await list(changeRequest.id)).count).toBe(0);
    expect((await submit(reviewer, 'cr_nope', { status: 'approved' })).status).toBe(404);
    expect((await callApi(reviewsOf(999), reader)).status).toBe(404);
    expect((await callApi(`${test.baseUrl}/spaces/spc_nope/change-requests/1/reviews`, reader)).status).toBe(
      404,
    );
    expect((await callApi(`${reviewsOf(changeRequest.id)}/rvw_nope`, reader)).status).toBe(404);
  });

  it('keeps every review: many by one reviewer and others by other reviewers', async () => {
    const changeRequest = newChangeRequest();
    const first = await submit(reviewer, changeRequest.id, { status: 'changes-requested' });
    const second = await submit(admin, changeRequest.id, { status: 'approved' });
    const third = await submit(reviewer, changeRequest.id, { status: 'approved' });
    const all = await list(changeRequest.id);
    expect(all.items.map((review) => [review.id, review.status])).toEqual([
      [first.body.id, 'changes-requested'],
      [second.body.id, 'approved'],
      [third.body.id, 'approved'],
    ]);
    const firstPage = await list(changeRequest.id, '?limit=2');
    expect(firstPage.count).toBe(2);
    expect(firstPage.next).toBeDefined();
    const rest = await list(changeRequest.id, `?limit=2&page=${firstPage.next?.page}`);
    expect(rest.items.map((review) => review.id)).toEqual([third.body.id]);
    expect(rest.next).toBeUndefined();
    expect((await callApi(`${reviewsOf(changeRequest.id)}?limit=1001`, reader)).status).toBe(400);
  });

  it('marks reviews outdated once the change request revision moves on', async () => {
    const changeRequest = newChangeRequest();
    const before = await submit(reviewer, changeRequest.id, { status: 'approved' });
    addRevision(test.emulator, { spaceId, changeRequestId: changeRequest.id }, [testPage('pg_1', 'one')]);
    const after = await submit(admin, changeRequest.id, { status: 'approved' });
    expect(after.body.revision).toBe(changeRequest.revision);
    expect(after.body.revision).not.toBe(before.body.revision);
    const reviews = (await list(changeRequest.id)).items;
    expect(reviews.map((review) => [review.id, review.outdated])).toEqual([
      [before.body.id, true],
      [after.body.id, false],
    ]);
  });

  it("posts a review's comment in the change request thread", async () => {
    const changeRequest = newChangeRequest();
    const thread = `${test.baseUrl}/spaces/${spaceId}/change-requests/${changeRequest.id}/comments`;
    await submit(reviewer, changeRequest.id, {
      status: 'changes-requested',
      comment: { markdown: 'Please fix the title' },
    });
    await submit(reviewer, changeRequest.id, { status: 'approved', comment: { markdown: 'Thanks!' } });
    const comments = await callApi<Page<{ body: { markdown: string }; postedBy: { displayName: string } }>>(
      `${thread}?order=asc`,
      reader,
    );
    expect(comments.body.items.map((item) => [item.postedBy.displayName, item.body.markdown])).toEqual([
      ['Rita Reviewer', 'Please fix the title'],
      ['Rita Reviewer', 'Thanks!'],
    ]);
  });

  it('refuses to review a merged or archived change request (400)', async () => {
    for (const status of ['merged', 'archived'] as const) {
      const changeRequest = newChangeRequest();
      changeRequest.status = status;
      const answer = await submit(reviewer, changeRequest.id, {
        status: 'approved',
        comment: { markdown: 'late' },
      });
      expect(answer.status).toBe(400);
      expect((await list(changeRequest.id)).count).toBe(0);
      const thread = `${test.baseUrl}/spaces/${spaceId}/change-requests/${changeRequest.id}/comments`;
      expect((await callApi<Page<unknown>>(thread, reader)).body.count).toBe(0);
    }
  });
});
