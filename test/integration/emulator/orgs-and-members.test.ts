// The local service's organization and member routes, called as each role would call them: reading
// the organization, the ping that marks a member as seen, and listing, sorting, changing and
// removing members. docsync itself only lists organizations (test/integration/api-client).
import { describe, expect, it } from 'vitest';
import { userIdOf } from '../../../src/emulator/create-emulator.js';
import { bodyOf, serviceAs } from '../../support/service-request.js';
import { startTestEmulator } from '../../support/start-test-emulator.js';
import { advanceClock } from '../../support/test-api-client.js';

const ADMIN = userIdOf('Admin');
const REVIEWER = userIdOf('Rita Reviewer');
const COMMENTER = userIdOf('Carl Commenter');
const READER = userIdOf('Rea Reader');

interface Organization {
  object: string;
  id: string;
  permissions: Record<string, boolean>;
}
interface Member {
  id: string;
  role: string | null;
  user: { displayName: string };
  lastSeenAt?: string;
  spaces?: number;
}
interface Page<T> {
  next?: { page: string };
  items: T[];
}

describe('the organization and its members in the local service', async () => {
  const test = await startTestEmulator();
  const admin = serviceAs(test, test.tokens.admin);
  const reviewer = serviceAs(test, test.tokens.reviewer);
  const reader = serviceAs(test, test.tokens.reader);
  const members = `/orgs/${test.orgId}/members`;
  const listed = async (query = '') => (await bodyOf(reader<Page<Member>>(`${members}${query}`))).items;
  const idsOf = async (query: string) => (await listed(query)).map((member) => member.id);

  it('reads the organization by id, with the permissions of the caller', async () => {
    const org = await bodyOf(admin<Organization>(`/orgs/${test.orgId}`));
    expect(org).toMatchObject({ object: 'organization', id: test.orgId, title: 'Local docs' });
    expect(org.permissions).toMatchObject({ admin: true, listMembers: true });
    const asReader = await bodyOf(reader<Organization>(`/orgs/${test.orgId}`));
    expect(asReader.permissions).toMatchObject({ admin: false, view: true });
    expect((await admin('/orgs/org_unknown')).status).toBe(404);
  });

  it('pings the organization, which marks the caller as seen at the service time', async () => {
    expect((await bodyOf(reviewer<Member>(`${members}/${REVIEWER}`))).lastSeenAt).toBeUndefined();
    await bodyOf(reviewer(`/orgs/${test.orgId}/ping`, 'POST'));
    const seen = await bodyOf(admin<Member>(`${members}/${REVIEWER}`));
    expect(Math.abs(Date.parse(seen.lastSeenAt ?? '') - Date.now())).toBeLessThan(60_000);
    expect((await reviewer('/orgs/org_unknown/ping', 'POST')).status).toBe(404);
  });

  it('lists members newest first, filtered by role and by a search on name or e-mail', async () => {
    const all = await listed();
    expect(all.map((member) => member.id)).toEqual([READER, COMMENTER, REVIEWER, ADMIN]);
    expect(all[3]).toMatchObject({ role: 'admin', user: { displayName: 'Admin' } });
    expect(await idsOf('?order=asc')).toEqual([ADMIN, REVIEWER, COMMENTER, READER]);

    const reviewers = await listed('?role=review');
    expect(reviewers.map((member) => member.user.displayName)).toEqual(['Rita Reviewer']);
    expect(await idsOf('?search=CARL')).toEqual([COMMENTER]);
    expect(await idsOf(`?search=${encodeURIComponent('rea.reader@')}`)).toEqual([READER]);
    expect(await idsOf('?search=nobody-by-that-name')).toEqual([]);

    const small = await bodyOf(reader<Page<Member>>(`${members}?limit=3`));
    expect(small.items).toHaveLength(3);
    expect(await idsOf(`?limit=3&page=${small.next?.page}`)).toEqual([ADMIN]);
  });
});

// Its own service: these tests move the clock and remove a member.
describe('member sorting and changes in the local service', async () => {
  const fresh = await startTestEmulator();
  const admin = serviceAs(fresh, fresh.tokens.admin);
  const members = `/orgs/${fresh.orgId}/members`;
  const idsOf = async (query: string) =>
    (await bodyOf(admin<Page<Member>>(`${members}${query}`))).items.map((member) => member.id);

  it('sorts by lastSeenAt: only members seen, the most recently seen first', async () => {
    await bodyOf(serviceAs(fresh, fresh.tokens.commenter)(`/orgs/${fresh.orgId}/ping`, 'POST'));
    await advanceClock(fresh, 60_000);
    await bodyOf(admin(`/orgs/${fresh.orgId}/ping`, 'POST'));
    expect(await idsOf('?sort=lastSeenAt')).toEqual([ADMIN, COMMENTER]);
    expect(await idsOf('?sort=lastSeenAt&order=asc')).toEqual([COMMENTER, ADMIN]);
  });

  it('changes and removes members for admins only (403 for the others, 404 for unknown users)', async () => {
    for (const token of [fresh.tokens.reviewer, fresh.tokens.commenter, fresh.tokens.reader]) {
      const other = serviceAs(fresh, token);
      expect((await other(`${members}/${COMMENTER}`, 'PATCH', { role: 'admin' })).status).toBe(403);
      expect((await other(`${members}/${READER}`, 'DELETE')).status).toBe(403);
    }
    expect((await bodyOf(admin<Member>(`${members}/${COMMENTER}`))).role).toBe('comment');

    const promoted = await bodyOf(admin<Member>(`${members}/${COMMENTER}`, 'PATCH', { role: 'edit' }));
    expect(promoted).toMatchObject({ id: COMMENTER, role: 'edit' });
    expect(await idsOf('?role=edit')).toEqual([COMMENTER]);
    const guest = await bodyOf(admin<Member>(`${members}/${COMMENTER}`, 'PATCH', { role: null }));
    expect(guest).toMatchObject({ role: null, spaces: 0 });
    expect((await admin(`${members}/${ADMIN}`, 'PATCH', { role: 'read' })).status).toBe(400);

    await bodyOf(admin(`${members}/${READER}`, 'DELETE'), 204);
    expect((await admin(`${members}/${READER}`)).status).toBe(404);
    expect((await admin(`${members}/${READER}`, 'DELETE')).status).toBe(404);
    // The removed member's token no longer opens anything.
    expect((await serviceAs(fresh, fresh.tokens.reader)(`/orgs/${fresh.orgId}`)).status).toBe(401);
    expect((await admin(`${members}/usr_unknown`)).status).toBe(404);
    expect((await admin(`${members}/usr_unknown`, 'PATCH', { role: 'read' })).status).toBe(404);
  });
});
