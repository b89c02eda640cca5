// docsync's client against the emulator over HTTP: organizations, members and the life cycle of
// spaces, with the errors a caller decides on (400, 401, 403, 404).
import { describe, expect, it } from 'vitest';
import { userIdOf } from '../../../src/emulator/create-emulator.js';
import { startTestEmulator } from '../../support/start-test-emulator.js';
import { advanceClock, apiErrorOf, expectApiStatus, testApiClient } from '../../support/test-api-client.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const ADMIN = userIdOf('Admin');
const REVIEWER = userIdOf('Rita Reviewer');
const COMMENTER = userIdOf('Carl Commenter');
const READER = userIdOf('Rea Reader');

describe('organizations and members through the client', async () => {
  const test = await startTestEmulator();
  const { client } = testApiClient(test);
  const reader = testApiClient(test, test.tokens.reader).client;
  const reviewer = testApiClient(test, test.tokens.reviewer).client;

  it('lists the organization of the token and reads it by id', async () => {
    const page = await client.orgs.list();
    expect(page.items.map((org) => org.id)).toEqual([test.orgId]);
    expect(page.next).toBeUndefined();
    const org = await client.orgs.get(test.orgId);
    expect(org).toMatchObject({ object: 'organization', id: test.orgId, title: 'Local docs' });
    expect(org.permissions).toMatchObject({ admin: true, listMembers: true });
    expect((await reader.orgs.get(test.orgId)).permissions).toMatchObject({ admin: false, view: true });
    await expectApiStatus(client.orgs.get('org_unknown'), 404);
  });

  it('pings the organization, which marks the caller as seen at the service time', async () => {
    expect((await reviewer.members.get(test.orgId, REVIEWER)).lastSeenAt).toBeUndefined();
    await reviewer.orgs.ping(test.orgId);
    const seen = await client.members.get(test.orgId, REVIEWER);
    expect(seen.lastSeenAt).toBeDefined();
    expect(Math.abs(Date.parse(seen.lastSeenAt ?? '') - Date.now())).toBeLessThan(60_000);
    await expectApiStatus(reviewer.orgs.ping('org_unknown'), 404);
  });

  it('lists members newest first, filtered by role and by a search on name or e-mail', async () => {
    const all = await reader.members.list(test.orgId);
    expect(all.items.map((member) => member.id)).toEqual([READER, COMMENTER, REVIEWER, ADMIN]);
    expect(all.items[3]).toMatchObject({ role: 'admin', user: { displayName: 'Admin' } });
    const ascending = await reader.members.list(test.orgId, { order: 'asc' });
    expect(ascending.items.map((member) => member.id)).toEqual([ADMIN, REVIEWER, COMMENTER, READER]);

    const reviewers = await reader.members.list(test.orgId, { role: 'review' });
    expect(reviewers.items.map((member) => member.user?.displayName)).toEqual(['Rita Reviewer']);
    expect((await reader.members.list(test.orgId, { search: 'CARL' })).items.map((m) => m.id)).toEqual([
      COMMENTER,
    ]);
    expect((await reader.members.list(test.orgId, { search: 'rea.reader@' })).items.map((m) => m.id)).toEqual(
      [READER],
    );
    expect((await reader.members.list(test.orgId, { search: 'nobody-by-that-name' })).items).toEqual([]);

    const small = await reader.members.list(test.orgId, { limit: 3 });
    expect(small.items).toHaveLength(3);
    const rest = await reader.members.list(test.orgId, { limit: 3, page: small.next?.page });
    expect(rest.items.map((member) => member.id)).toEqual([ADMIN]);
    const walked: string[] = [];
    for await (const member of reader.members.listAll(test.orgId, { order: 'asc' })) walked.push(member.id);
    expect(walked).toEqual([ADMIN, REVIEWER, COMMENTER, READER]);
  });
});

// Its own emulator: these tests move the clock and remove a member.
describe('member sorting and changes through the client', async () => {
  const fresh = await startTestEmulator();
  const admin = testApiClient(fresh).client;

  it('sorts by lastSeenAt: only members seen, the most recently seen first', async () => {
    const commenter = testApiClient(fresh, fresh.tokens.commenter).client;
    await commenter.orgs.ping(fresh.orgId);
    await advanceClock(fresh, 60_000);
    await admin.orgs.ping(fresh.orgId);
    const seen = await admin.members.list(fresh.orgId, { sort: 'lastSeenAt' });
    expect(seen.items.map((member) => member.id)).toEqual([ADMIN, COMMENTER]);
    const oldestFirst = await admin.members.list(fresh.orgId, { sort: 'lastSeenAt', order: 'asc' });
    expect(oldestFirst.items.map((member) => member.id)).toEqual([COMMENTER, ADMIN]);
  });

  it('changes and removes members for admins only (403 for the others, 404 for unknown users)', async () => {
    const others = [fresh.tokens.reviewer, fresh.tokens.commenter, fresh.tokens.reader].map(
      (token) => testApiClient(fresh, token).client,
    );
    for (const other of others) {
      const denied = await expectApiStatus(other.members.updateRole(fresh.orgId, COMMENTER, 'admin'), 403);
      expect(denied.retryable).toBe(false);
      await expectApiStatus(other.members.delete(fresh.orgId, READER), 403);
    }
    expect((await admin.members.get(fresh.orgId, COMMENTER)).role).toBe('comment');

    const promoted = await admin.members.updateRole(fresh.orgId, COMMENTER, 'edit');
    expect(promoted).toMatchObject({ id: COMMENTER, role: 'edit' });
    expect((await admin.members.list(fresh.orgId, { role: 'edit' })).items.map((m) => m.id)).toEqual([
      COMMENTER,
    ]);
    const guest = await admin.members.updateRole(fresh.orgId, COMMENTER, null);
    expect(guest).toMatchObject({ role: null, spaces: 0 });
    await expectApiStatus(admin.members.updateRole(fresh.orgId, ADMIN, 'read'), 400);

    await admin.members.delete(fresh.orgId, READER);
    await expectApiStatus(admin.members.get(fresh.orgId, READER), 404);
    await expectApiStatus(admin.members.delete(fresh.orgId, READER), 404);
    // The removed member's token no longer opens anything.
    await expectApiStatus(testApiClient(fresh, fresh.tokens.reader).client.orgs.get(fresh.orgId), 401);
    await expectApiStatus(admin.members.get(fresh.orgId, 'usr_unknown'), 404);
    await expectApiStatus(admin.members.updateRole(fresh.orgId, 'usr_unknown', 'read'), 404);
  });
});

describe('spaces through the client', async () => {
  const test = await startTestEmulator();
  const { client, attempts } = testApiClient(test);
  const reader = testApiClient(test, test.tokens.reader).client;
  const lastStatus = () => attempts.at(-1)?.status;

  it('creates a space (201) that reads back with its owner, an empty revision and zero counters', async () => {
    const space = await client.spaces.create(test.orgId, { title: 'Handbook' });
    expect(lastStatus()).toBe(201);
    expect(space).toMatchObject({
      object: 'space',
      title: 'Handbook',
      organization: test.orgId,
      visibility: 'private',
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
      comments: 0,
    });
    expect(space.deletedAt).toBeUndefined();
    expect(await client.spaces.get(space.id)).toEqual(space);
    const content = await client.content.getRevision({ spaceId: space.id });
    expect(content).toMatchObject({ id: space.revision, pages: [], files: [] });
    await expectApiStatus(reader.spaces.create(test.orgId, { title: 'Not mine' }), 403);
    await expectApiStatus(client.spaces.create('org_unknown', { title: 'Nowhere' }), 404);
  });

  it('patches title and emoji; a title over 50 characters is a 400 naming the field', async () => {
    const space = await client.spaces.create(test.orgId, { title: 'Draft' });
    const fifty = 'x'.repeat(50);
    const patched = await client.spaces.patch(space.id, { title: fifty, emoji: '📘' });
    expect(patched).toMatchObject({ title: fifty, emoji: '📘' });
    expect(Date.parse(patched.updatedAt)).toBeGreaterThanOrEqual(Date.parse(space.updatedAt));

    const error = await expectApiStatus(client.spaces.patch(space.id, { title: 'y'.repeat(51) }), 400);
    expect(error).toMatchObject({ retryable: false, method: 'PATCH', path: `/spaces/${space.id}` });
    expect(error.serviceMessage).toMatch(/title/);
    expect(error.message).toContain('400');
    expect(error.message).toMatch(/title/);
    expect((await client.spaces.get(space.id)).title).toBe(fifty);
    await expectApiStatus(reader.spaces.patch(space.id, { title: 'Mine now' }), 403);
  });

  it('deletes a space (then it reads with deletedAt) and restores it within 7 days', async () => {
    const space = await client.spaces.create(test.orgId, { title: 'Old' });
    await client.spaces.delete(space.id);
    expect(lastStatus()).toBe(205);
    const deleted = await client.spaces.get(space.id);
    expect(Date.parse(deleted.deletedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(space.createdAt));
    // Its content and change requests are gone while it is deleted.
    await expectApiStatus(client.content.getRevision({ spaceId: space.id }), 404);
    await expectApiStatus(client.changeRequests.create(space.id, {}), 404);

    await advanceClock(test, 6 * DAY_MS);
    const restored = await client.spaces.restore(space.id);
    expect(restored.deletedAt).toBeUndefined();
    expect((await client.spaces.get(space.id)).deletedAt).toBeUndefined();
    expect((await client.content.getRevision({ spaceId: space.id })).id).toBe(space.revision);
    await expectApiStatus(client.spaces.restore(space.id), 400);
  });

  it('cannot restore a space deleted 8 days ago: it is gone for good', async () => {
    const space = await client.spaces.create(test.orgId, { title: 'Forgotten' });
    await client.spaces.delete(space.id);
    await expectApiStatus(reader.spaces.restore(space.id), 403);
    await advanceClock(test, 8 * DAY_MS);
    await expectApiStatus(client.spaces.restore(space.id), 404);
    await expectApiStatus(client.spaces.get(space.id), 404);
  });

  it('duplicates a space (201) into a copy with the same content and its own counters', async () => {
    const space = await client.spaces.create(test.orgId, { title: 'Original' });
    await client.changeRequests.create(space.id, { subject: 'Pending' });
    const copy = await client.spaces.duplicate(space.id);
    expect(lastStatus()).toBe(201);
    expect(copy.id).not.toBe(space.id);
    expect(copy).toMatchObject({ title: 'Original (copy)', revision: space.revision, changeRequests: 0 });
    expect((await client.spaces.get(space.id)).changeRequests).toBe(1);
    const first = await client.changeRequests.create(copy.id, {});
    expect(first.number).toBe(1);
  });

  it('moves a space among its siblings, and 404s for unknown siblings and collections', async () => {
    const first = await client.spaces.create(test.orgId, { title: 'First' });
    const second = await client.spaces.create(test.orgId, { title: 'Second' });
    const moved = await client.spaces.move(second.id, {
      position: { before: { type: 'space', space: first.id } },
    });
    expect(moved.id).toBe(second.id);
    expect((await client.spaces.move(second.id, { parent: null })).parent).toBeUndefined();
    await expectApiStatus(
      client.spaces.move(second.id, { position: { after: { type: 'space', space: 'spc_unknown' } } }),
      404,
    );
    await expectApiStatus(client.spaces.move(second.id, { parent: 'col_unknown' }), 404);
    await expectApiStatus(reader.spaces.move(second.id, { parent: null }), 403);
  });

  it('transfers within its organization only: another organization is a 404', async () => {
    const space = await client.spaces.create(test.orgId, { title: 'Stays' });
    await expectApiStatus(client.spaces.transfer(space.id, { organization: 'org_elsewhere' }), 404);
    expect((await client.spaces.get(space.id)).organization).toBe(test.orgId);
    expect((await client.spaces.transfer(space.id, { organization: test.orgId })).organization).toBe(
      test.orgId,
    );
  });

  it('answers 404 for unknown ids everywhere', async () => {
    const space = await client.spaces.create(test.orgId, { title: 'Known' });
    await expectApiStatus(client.spaces.get('spc_unknown'), 404);
    await expectApiStatus(client.spaces.delete('spc_unknown'), 404);
    await expectApiStatus(client.changeRequests.get(space.id, 'cr_unknown'), 404);
    await expectApiStatus(client.changeRequests.get(space.id, 99), 404);
    await expectApiStatus(client.content.getPage({ spaceId: space.id }, 'pg_unknown'), 404);
    await expectApiStatus(client.content.getFile({ spaceId: space.id }, 'fl_unknown'), 404);
  });

  it('refuses a wrong token with 401, and the token appears nowhere in the error', async () => {
    const token = 'wrong-token-d0cSyncS3cr3t';
    const stranger = testApiClient(test, token);
    for (const call of [
      stranger.client.orgs.list(),
      stranger.client.spaces.get('spc_any'),
      stranger.client.changeRequests.create('spc_any', { subject: token }),
    ]) {
      const error = await expectApiStatus(call, 401);
      expect(error.retryable).toBe(false);
      expect(stranger.sleeps).toEqual([]);
      const seen = [
        error.message,
        error.stack ?? '',
        error.serviceMessage ?? '',
        String(error),
        JSON.stringify(error),
        JSON.stringify(error.cause ?? null),
      ].join('\n');
      expect(seen).not.toContain(token);
    }
    const unknown = await apiErrorOf(testApiClient(test, 'admin-token-but-longer').client.orgs.list());
    expect(unknown.status).toBe(401);
  });
});
