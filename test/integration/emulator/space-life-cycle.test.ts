// The local service's space routes beyond creating and reading one (which docsync's client does:
// test/integration/api-client): patching, deleting and restoring within 7 days, duplicating,
// moving among siblings and transferring, as each role would call them.
import { describe, expect, it } from 'vitest';
import { bodyOf, errorOf, serviceAs } from '../../support/service-request.js';
import { startTestEmulator } from '../../support/start-test-emulator.js';
import { advanceClock } from '../../support/test-api-client.js';

const DAY_MS = 24 * 60 * 60 * 1000;

interface Space {
  id: string;
  title: string;
  organization: string;
  revision: string;
  createdAt: string;
  updatedAt: string;
  deletedAt?: string;
  parent?: string;
  changeRequests: number;
}

describe('the life cycle of spaces in the local service', async () => {
  const test = await startTestEmulator();
  const admin = serviceAs(test, test.tokens.admin);
  const reader = serviceAs(test, test.tokens.reader);
  const newSpace = (title: string) =>
    bodyOf(admin<Space>(`/orgs/${test.orgId}/spaces`, 'POST', { title }), 201);
  const spaceOf = (id: string) => bodyOf(admin<Space>(`/spaces/${id}`));

  it('patches title and emoji; a title over 50 characters is a 400 naming the field', async () => {
    const space = await newSpace('Draft');
    const fifty = 'x'.repeat(50);
    const patched = await bodyOf(admin<Space>(`/spaces/${space.id}`, 'PATCH', { title: fifty, emoji: '📘' }));
    expect(patched).toMatchObject({ title: fifty, emoji: '📘' });
    expect(Date.parse(patched.updatedAt)).toBeGreaterThanOrEqual(Date.parse(space.updatedAt));

    expect(await errorOf(admin(`/spaces/${space.id}`, 'PATCH', { title: 'y'.repeat(51) }), 400)).toMatch(
      /title/,
    );
    expect((await spaceOf(space.id)).title).toBe(fifty);
    expect((await reader(`/spaces/${space.id}`, 'PATCH', { title: 'Mine now' })).status).toBe(403);
  });

  it('deletes a space (205, then it reads with deletedAt) and restores it within 7 days', async () => {
    const space = await newSpace('Old');
    await bodyOf(admin(`/spaces/${space.id}`, 'DELETE'), 205);
    const deleted = await spaceOf(space.id);
    expect(Date.parse(deleted.deletedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(space.createdAt));
    // Its content and change requests are gone while it is deleted.
    expect((await admin(`/spaces/${space.id}/content`)).status).toBe(404);
    expect((await admin(`/spaces/${space.id}/change-requests`, 'POST', {})).status).toBe(404);

    await advanceClock(test, 6 * DAY_MS);
    const restored = await bodyOf(admin<Space>(`/spaces/${space.id}/restore`, 'POST'));
    expect(restored.deletedAt).toBeUndefined();
    expect((await spaceOf(space.id)).deletedAt).toBeUndefined();
    expect((await bodyOf(admin<{ id: string }>(`/spaces/${space.id}/content`))).id).toBe(space.revision);
    expect((await admin(`/spaces/${space.id}/restore`, 'POST')).status).toBe(400);
  });

  it('cannot restore a space deleted 8 days ago: it is gone for good', async () => {
    const space = await newSpace('Forgotten');
    await bodyOf(admin(`/spaces/${space.id}`, 'DELETE'), 205);
    expect((await reader(`/spaces/${space.id}/restore`, 'POST')).status).toBe(403);
    await advanceClock(test, 8 * DAY_MS);
    expect((await admin(`/spaces/${space.id}/restore`, 'POST')).status).toBe(404);
    expect((await admin(`/spaces/${space.id}`)).status).toBe(404);
  });

  it('duplicates a space (201) into a copy with the same content and its own counters', async () => {
    const space = await newSpace('Original');
    await bodyOf(admin(`/spaces/${space.id}/change-requests`, 'POST', { subject: 'Pending' }), 201);
    const copy = await bodyOf(admin<Space>(`/spaces/${space.id}/duplicate`, 'POST'), 201);
    expect(copy.id).not.toBe(space.id);
    expect(copy).toMatchObject({ title: 'Original (copy)', revision: space.revision, changeRequests: 0 });
    expect((await spaceOf(space.id)).changeRequests).toBe(1);
    const first = await bodyOf(
      admin<{ number: number }>(`/spaces/${copy.id}/change-requests`, 'POST', {}),
      201,
    );
    expect(first.number).toBe(1);
  });

  it('moves a space among its siblings, and 404s for unknown siblings and collections', async () => {
    const first = await newSpace('First');
    const second = await newSpace('Second');
    const move = `/spaces/${second.id}/move`;
    const moved = await bodyOf(
      admin<Space>(move, 'POST', { position: { before: { type: 'space', space: first.id } } }),
    );
    expect(moved.id).toBe(second.id);
    expect((await bodyOf(admin<Space>(move, 'POST', { parent: null }))).parent).toBeUndefined();
    const unknownSibling = { position: { after: { type: 'space', space: 'spc_unknown' } } };
    expect((await admin(move, 'POST', unknownSibling)).status).toBe(404);
    expect((await admin(move, 'POST', { parent: 'col_unknown' })).status).toBe(404);
    expect((await reader(move, 'POST', { parent: null })).status).toBe(403);
  });

  it('transfers within its organization only: another organization is a 404', async () => {
    const space = await newSpace('Stays');
    const transfer = `/spaces/${space.id}/transfer`;
    expect((await admin(transfer, 'POST', { organization: 'org_elsewhere' })).status).toBe(404);
    expect((await spaceOf(space.id)).organization).toBe(test.orgId);
    const kept = await bodyOf(admin<Space>(transfer, 'POST', { organization: test.orgId }));
    expect(kept.organization).toBe(test.orgId);
  });

  it('answers 404 to deleting an unknown space', async () => {
    expect((await admin('/spaces/spc_unknown', 'DELETE')).status).toBe(404);
  });
});
