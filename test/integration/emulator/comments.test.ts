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

interface User {
  id: string;
  displayName: string;
}
interface Reaction {
  emoji: string;
  count: number;
  users: Array<{ user: User; reactedAt: string }>;
}
interface Comment {
  object: string;
  id: string;
  postedBy: User;
  postedAt: string;
  editedAt?: string;
  reactions: Reaction[];
  replies: number;
  body: { markdown: string };
  target: { space: string; changeRequest?: string; page?: Record<string, unknown>; node?: { id: string } };
  urls: { location: string };
  permissions: { view: boolean; edit: boolean; reply: boolean; delete: boolean };
  status: string;
  resolvedAt?: string;
  resolvedBy?: User;
}
interface Page<T> {
  next?: { page: string };
  count: number;
  items: T[];
}
interface ErrorBody {
  error: { code: number; message: string };
}

describe('comments of the local service', async () => {
  const test = await startTestEmulator();
  const { admin, reviewer, commenter, reader } = test.tokens;
  const spaceId = await createTestSpace(test);
  addRevision(test.emulator, { spaceId }, [
    testPage('pg_guides', 'guides', [testPage('pg_install', 'install')]),
  ]);
  const thread = `${test.baseUrl}/spaces/${spaceId}/comments`;
  const post = (token: string, body: unknown, url = thread) => callApi<Comment>(url, token, 'POST', body);
  const put = (token: string, id: string, body: unknown) =>
    callApi<Comment>(`${thread}/${id}`, token, 'PUT', body);
  const openCount = async () =>
    (await callApi<{ comments: number }>(`${test.baseUrl}/spaces/${spaceId}`, reader)).body.comments;

  it('posts a comment (200) and serves it with author, body, target, urls and permissions', async () => {
    const before = await openCount();
    const posted = await post(commenter, { body: { markdown: 'Typo in *install*' } });
    expect(posted.status).toBe(200);
    expect(posted.body).toMatchObject({
      object: 'comment',
      postedBy: { object: 'user', displayName: 'Carl Commenter' },
      reactions: [],
      replies: 0,
      body: { markdown: 'Typo in *install*' },
      target: { space: spaceId },
      urls: { location: `${thread}/${posted.body.id}` },
      permissions: { view: true, edit: true, reply: true, delete: true },
      status: 'open',
    });
    expect(posted.body.editedAt).toBeUndefined();
    expect(posted.body.resolvedAt).toBeUndefined();
    const fetched = await callApi<Comment>(posted.body.urls.location, reader);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual({
      ...posted.body,
      permissions: { view: true, edit: false, reply: false, delete: false },
    });
    expect(await openCount()).toBe(before + 1);
  });

  it('accepts an empty body and targets a page of the current revision, with its path', async () => {
    const empty = await post(commenter, { body: {} });
    expect(empty.body.body).toEqual({ markdown: '' });
    const targeted = await post(commenter, { body: { markdown: 'here' }, page: 'pg_install', node: 'n1' });
    expect(targeted.status).toBe(200);
    expect(targeted.body.target).toEqual({
      space: spaceId,
      revision: test.emulator.state.spaces[spaceId]?.revision,
      page: expect.objectContaining({
        id: 'pg_install',
        title: 'Page install',
        path: 'guides/install',
        outdated: false,
      }),
      node: { id: 'n1' },
    });
  });

  it('refuses a page outside the revision and malformed bodies with 400, creating nothing', async () => {
    const before = Object.keys(test.emulator.state.comments).length;
    for (const body of [
      { body: { markdown: 'x' }, page: 'pg_missing' },
      {},
      { body: { markdown: 3 } },
      { body: { markdown: 'x' }, extra: true },
    ]) {
      const answer = await callApi<ErrorBody>(thread, commenter, 'POST', body);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toEqual({ code: 400, message: expect.any(String) });
    }
    expect(Object.keys(test.emulator.state.comments)).toHaveLength(before);
  });

  it('answers 401 without a token, 403 below the comment role, 404 for unknown ids', async () => {
    expect((await callApi(thread, undefined)).status).toBe(401);
    const denied = await callApi<ErrorBody>(thread, reader, 'POST', { body: { markdown: 'hi' } });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe(403);
    expect((await callApi(`${test.baseUrl}/spaces/spc_nope/comments`, admin)).status).toBe(404);
    expect((await callApi(`${thread}/cmt_nope`, admin)).status).toBe(404);
    expect((await callApi(`${thread}/cmt_nope`, admin, 'PUT', {})).status).toBe(404);
  });

  it('resolves and reopens a comment, and the open counts and status filter follow', async () => {
    const { body: comment } = await post(commenter, { body: { markdown: 'Resolve me' } });
    const before = await openCount();
    const resolved = await put(reviewer, comment.id, { resolved: true });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({ status: 'resolved', resolvedBy: { displayName: 'Rita Reviewer' } });
    expect(Date.parse(resolved.body.resolvedAt ?? '')).not.toBeNaN();
    expect(await openCount()).toBe(before - 1);
    const ids = async (status: string) =>
      (await callApi<Page<Comment>>(`${thread}?status=${status}&limit=1000`, reader)).body.items.map(
        (c) => c.id,
      );
    expect(await ids('resolved')).toContain(comment.id);
    expect(await ids('open')).not.toContain(comment.id);
    expect(await ids('all')).toContain(comment.id);

    const reopened = await put(commenter, comment.id, { resolved: false });
    expect(reopened.body.status).toBe('open');
    expect(reopened.body.resolvedAt).toBeUndefined();
    expect(reopened.body.resolvedBy).toBeUndefined();
    expect(await openCount()).toBe(before);
  });

  it('lets only the author edit the body, and a refused update changes nothing', async () => {
    const { body: comment } = await post(commenter, { body: { markdown: 'v1' } });
    const refused = await put(admin, comment.id, { body: { markdown: 'hijacked' }, resolved: true });
    expect(refused.status).toBe(403);
    const unchanged = await callApi<Comment>(`${thread}/${comment.id}`, admin);
    expect(unchanged.body).toMatchObject({ status: 'open', body: { markdown: 'v1' } });
    expect(unchanged.body.editedAt).toBeUndefined();

    const edited = await put(commenter, comment.id, { body: { markdown: 'v2' } });
    expect(edited.body.body.markdown).toBe('v2');
    expect(Date.parse(edited.body.editedAt ?? '')).not.toBeNaN();
  });

  it("adds and removes the caller's own reactions, once per emoji", async () => {
    const { body: comment } = await post(commenter, { body: { markdown: 'react' } });
    await put(commenter, comment.id, { addedReactions: ['👍', '🎉'] });
    await put(reviewer, comment.id, { addedReactions: ['👍', '👍'] });
    const both = await put(reviewer, comment.id, { addedReactions: ['👍'] });
    const thumbs = both.body.reactions.find((reaction) => reaction.emoji === '👍');
    expect(thumbs?.count).toBe(2);
    expect(thumbs?.users.map((entry) => entry.user.displayName)).toEqual(['Carl Commenter', 'Rita Reviewer']);
    expect(both.body.reactions.find((reaction) => reaction.emoji === '🎉')?.count).toBe(1);

    const removed = await put(commenter, comment.id, { removedReactions: ['👍', '🎉'] });
    expect(removed.body.reactions).toEqual([
      {
        emoji: '👍',
        count: 1,
        users: [
          { user: expect.objectContaining({ displayName: 'Rita Reviewer' }), reactedAt: expect.any(String) },
        ],
      },
    ]);
    const same = await put(commenter, comment.id, { addedReactions: ['🚀'], removedReactions: ['🚀'] });
    expect(same.body.reactions.map((reaction) => reaction.emoji)).toEqual(['👍']);
    expect((await put(reader, comment.id, { addedReactions: ['👀'] })).status).toBe(403);
  });

  it('deletes (205) for the author or an admin only; deleted comments are gone from lists and counts', async () => {
    const { body: comment } = await post(commenter, { body: { markdown: 'delete me' } });
    const before = await openCount();
    expect((await callApi(`${thread}/${comment.id}`, reviewer, 'DELETE')).status).toBe(403);
    expect((await callApi(`${thread}/${comment.id}`, reader, 'DELETE')).status).toBe(403);
    const deleted = await callApi(`${thread}/${comment.id}`, commenter, 'DELETE');
    expect(deleted.status).toBe(205);
    expect(deleted.body).toBeUndefined();
    expect((await callApi(`${thread}/${comment.id}`, commenter)).status).toBe(404);
    expect((await callApi(`${thread}/${comment.id}`, commenter, 'DELETE')).status).toBe(404);
    expect(await openCount()).toBe(before - 1);
    const list = await callApi<Page<Comment>>(`${thread}?limit=1000`, reader);
    expect(list.body.items.map((item) => item.id)).not.toContain(comment.id);

    const { body: other } = await post(reviewer, { body: { markdown: 'admin removes this' } });
    expect((await callApi(`${thread}/${other.id}`, admin, 'DELETE')).status).toBe(205);
  });

  it('filters lists by authors (repeated or comma-separated) and target page, in either order', async () => {
    const space = await createTestSpace(test, 'Filters');
    addRevision(test.emulator, { spaceId: space }, [testPage('pg_a', 'a')]);
    const url = `${test.baseUrl}/spaces/${space}/comments`;
    const first = await post(commenter, { body: { markdown: '1' } }, url);
    const second = await post(reviewer, { body: { markdown: '2' }, page: 'pg_a' }, url);
    const third = await post(admin, { body: { markdown: '3' } }, url);
    const ids = async (query: string) =>
      (await callApi<Page<Comment>>(`${url}?${query}`, reader)).body.items.map((item) => item.id);
    const [c, r, a] = [first.body, second.body, third.body];
    expect(await ids('')).toEqual([a.id, r.id, c.id]);
    expect(await ids('order=asc')).toEqual([c.id, r.id, a.id]);
    expect(await ids(`authors=${c.postedBy.id},${a.postedBy.id}`)).toEqual([a.id, c.id]);
    expect(await ids(`authors=${c.postedBy.id}&authors=${r.postedBy.id}`)).toEqual([r.id, c.id]);
    expect(await ids('targetPage=pg_a')).toEqual([r.id]);
    expect(await ids('format=document')).toHaveLength(3);
    for (const bad of [
      'limit=1001',
      'limit=0',
      'status=closed',
      'order=up',
      'format=html',
      'page=nonsense',
    ]) {
      expect((await callApi(`${url}?${bad}`, reader)).status, bad).toBe(400);
    }
  });

  it('keeps replies in reading order, counts them, and lets only their author edit them', async () => {
    const { body: comment } = await post(commenter, { body: { markdown: 'question' } });
    const replies = `${thread}/${comment.id}/replies`;
    const first = await callApi<Comment>(replies, reviewer, 'POST', { body: { markdown: 'answer' } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      object: 'comment-reply',
      postedBy: { displayName: 'Rita Reviewer' },
      body: { markdown: 'answer' },
      reactions: [],
      urls: { location: `${replies}/${first.body.id}` },
      permissions: { view: true, edit: true, reply: true, delete: true },
    });
    const second = await callApi<Comment>(replies, commenter, 'POST', { body: {} });
    expect((await callApi<Comment>(`${thread}/${comment.id}`, reader)).body.replies).toBe(2);
    const list = await callApi<Page<Comment>>(replies, reader);
    expect(list.body.items.map((item) => item.id)).toEqual([first.body.id, second.body.id]);
    expect((await callApi<Comment>(`${replies}/${first.body.id}`, reader)).body.id).toBe(first.body.id);

    const refused = await callApi(`${replies}/${first.body.id}`, commenter, 'PUT', {
      body: { markdown: 'no' },
    });
    expect(refused.status).toBe(403);
    const reacted = await callApi<Comment>(`${replies}/${first.body.id}`, commenter, 'PUT', {
      addedReactions: ['✅'],
    });
    expect(reacted.body.reactions).toEqual([
      {
        emoji: '✅',
        count: 1,
        users: [
          { user: expect.objectContaining({ displayName: 'Carl Commenter' }), reactedAt: expect.any(String) },
        ],
      },
    ]);
    expect(reacted.body.body.markdown).toBe('answer');
    const edited = await callApi<Comment>(`${replies}/${first.body.id}`, reviewer, 'PUT', {
      body: { markdown: 'better answer' },
    });
    expect(edited.body).toMatchObject({ body: { markdown: 'better answer' }, editedAt: expect.any(String) });

    expect((await callApi(replies, reader, 'POST', { body: { markdown: 'hi' } })).status).toBe(403);
    expect((await callApi(`${replies}/rpl_nope`, reader)).status).toBe(404);
    expect((await callApi(`${thread}/cmt_nope/replies`, reader)).status).toBe(404);
    await callApi(`${thread}/${comment.id}`, commenter, 'DELETE');
    expect((await callApi(replies, reader)).status).toBe(404);
  });

  it('keeps change request threads apart, by id or number, with pages of the change request', async () => {
    const space = await createTestSpace(test, 'With change requests');
    const changeRequest = addChangeRequest(test.emulator, space, userIdOf('Admin'));
    addRevision(test.emulator, { spaceId: space, changeRequestId: changeRequest.id }, [
      testPage('pg_new', 'new'),
    ]);
    const spaceThread = `${test.baseUrl}/spaces/${space}/comments`;
    const byNumber = `${test.baseUrl}/spaces/${space}/change-requests/${changeRequest.number}/comments`;
    const byId = `${test.baseUrl}/spaces/${space}/change-requests/${changeRequest.id}/comments`;
    const before = (await callApi<{ comments: number }>(`${test.baseUrl}/spaces/${space}`, reader)).body
      .comments;

    const posted = await post(commenter, { body: { markdown: 'on the change' }, page: 'pg_new' }, byNumber);
    expect(posted.status).toBe(200);
    expect(posted.body.target).toMatchObject({
      changeRequest: changeRequest.id,
      space,
      page: { id: 'pg_new' },
    });
    expect(posted.body.urls.location).toBe(`${byId}/${posted.body.id}`);
    expect((await callApi<Comment>(`${byId}/${posted.body.id}`, reader)).status).toBe(200);
    expect((await callApi(`${spaceThread}/${posted.body.id}`, reader)).status).toBe(404);
    expect((await callApi<Page<Comment>>(byId, reader)).body.items.map((item) => item.id)).toEqual([
      posted.body.id,
    ]);
    expect((await callApi<Page<Comment>>(spaceThread, reader)).body.count).toBe(0);
    expect(
      (await callApi<{ comments: number }>(`${test.baseUrl}/spaces/${space}`, reader)).body.comments,
    ).toBe(before);
    expect((await post(commenter, { body: {}, page: 'pg_new' }, spaceThread)).status).toBe(400);
    expect(
      (await callApi(`${test.baseUrl}/spaces/${space}/change-requests/99/comments`, reader)).status,
    ).toBe(404);
  });

  it('walks 1,050 comments page by page, every one exactly once, with large and small limits', async () => {
    const space = await createTestSpace(test, 'Many');
    const url = `${test.baseUrl}/spaces/${space}/comments`;
    const created = new Set<string>();
    for (let batch = 0; batch < 1050; batch += 50) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, index) =>
          post(commenter, { body: { markdown: `#${batch + index}` } }, url),
        ),
      );
      for (const answer of answers) created.add(answer.body.id);
    }
    const walk = async (limit: number) => {
      const seen: string[] = [];
      let page: string | undefined;
      let pages = 0;
      do {
        const query = `limit=${limit}${page === undefined ? '' : `&page=${page}`}`;
        const answer = await callApi<Page<Comment>>(`${url}?${query}`, reader);
        expect(answer.status).toBe(200);
        expect(answer.body.count).toBe(answer.body.items.length);
        seen.push(...answer.body.items.map((item) => item.id));
        page = answer.body.next?.page;
        pages += 1;
      } while (page !== undefined);
      return { seen, pages };
    };
    const large = await walk(1000);
    expect(large.pages).toBe(2);
    expect(large.seen).toHaveLength(1050);
    expect(new Set(large.seen)).toEqual(created);
    const small = await walk(97);
    expect(small.pages).toBe(11);
    expect(small.seen).toEqual(large.seen);
    const first = await callApi<Page<Comment>>(url, reader);
    expect(first.body.count).toBe(50);
  });
});
