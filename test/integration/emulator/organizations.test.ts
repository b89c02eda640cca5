// Several organizations in one local service: a user is a member of each with a role of its own, sees
// only the organizations (and what they hold) they belong to, and an admin of two moves a space from
// one to the other with its change requests and comments. Spaces also move within an organization,
// into its collections. Every answer is checked against the public document.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createEmulator, userIdOf } from '../../../src/emulator/create-emulator.js';
import { checkedService } from '../../support/checked-service.js';
import { checkResponse } from '../../support/service-document.js';
import type { ServiceRequest } from '../../support/service-request.js';
import { serviceAs } from '../../support/service-request.js';
import { type ApiAnswer, addChangeRequest, startTestEmulator } from '../../support/start-test-emulator.js';
import { addTestOrganization } from '../../support/test-organization.js';

interface Organization {
  id: string;
  title: string;
  permissions: Record<string, boolean>;
}
interface Space {
  id: string;
  organization: string;
  parent?: string;
  visibility: string;
  permissions: Record<string, boolean>;
}
interface Page<T> {
  items: T[];
}

/** The body of an answer with `status`, else the test fails showing the answer. */
async function expectStatus<T>(answer: Promise<ApiAnswer<T>>, status: number): Promise<T> {
  const { status: got, body } = await answer;
  expect({ status: got, body }).toMatchObject({ status });
  return body;
}

describe('several organizations in the local service', async () => {
  const test = await startTestEmulator();
  // Admin is admin in both; Rita reviews in the default organization and administers the partner's;
  // Rea reads in the first and edits in the second; Carl is a member of the first only.
  const partnerId = addTestOrganization(test, 'Partner docs', [
    { name: 'Rita Reviewer', role: 'admin' },
    { name: 'Admin', role: 'admin' },
    { name: 'Rea Reader', role: 'edit' },
  ]);
  const admin = checkedService(serviceAs(test, test.tokens.admin));
  const rita = checkedService(serviceAs(test, test.tokens.reviewer));
  const carl = checkedService(serviceAs(test, test.tokens.commenter));
  const rea = checkedService(serviceAs(test, test.tokens.reader));
  const newSpace = async (as: ServiceRequest, orgId: string, title: string) =>
    (await expectStatus(as<Space>(`/orgs/${orgId}/spaces`, 'POST', { title }), 201)).id;
  // A space at the default organization's top level.
  const spaceOutside = await newSpace(admin, test.orgId, 'Outside');

  it('lists every organization of the caller, each with the caller role there', async () => {
    const ofAdmin = await expectStatus(admin<Page<Organization>>('/orgs'), 200);
    expect(ofAdmin.items.map((org) => [org.id, org.title])).toEqual([
      [test.orgId, 'Local docs'],
      [partnerId, 'Partner docs'],
    ]);
    const ofRita = await expectStatus(rita<Page<Organization>>('/orgs'), 200);
    expect(ofRita.items.map((org) => [org.id, org.permissions.admin])).toEqual([
      [test.orgId, false],
      [partnerId, true],
    ]);
    const ofCarl = await expectStatus(carl<Page<Organization>>('/orgs'), 200);
    expect(ofCarl.items.map((org) => org.id)).toEqual([test.orgId]);
    const paged = await expectStatus(admin<Page<Organization>>('/orgs?limit=1'), 200);
    expect(paged.items.map((org) => org.id)).toEqual([test.orgId]);
  });

  it('resolves the role in the organization concerned, and hides other organizations (404)', async () => {
    // Rita administers the partner organization, but may not create spaces where she reviews.
    const partnerSpace = await newSpace(rita, partnerId, 'Partner handbook');
    await expectStatus(rita(`/orgs/${test.orgId}/spaces`, 'POST', { title: 'No' }), 403);
    const homeSpace = await newSpace(admin, test.orgId, 'Home handbook');
    expect((await expectStatus(rita<Space>(`/spaces/${partnerSpace}`), 200)).permissions.admin).toBe(true);
    expect((await expectStatus(rita<Space>(`/spaces/${homeSpace}`), 200)).permissions).toMatchObject({
      admin: false,
      review: true,
    });
    expect((await expectStatus(rea<Space>(`/spaces/${partnerSpace}`), 200)).permissions.edit).toBe(true);
    expect((await expectStatus(rea<Space>(`/spaces/${homeSpace}`), 200)).permissions.edit).toBe(false);
    expect((await expectStatus(rita<Organization>(`/orgs/${partnerId}`), 200)).permissions.admin).toBe(true);

    // Carl is no member of the partner organization: it and its spaces do not exist for him.
    await expectStatus(carl(`/orgs/${partnerId}`), 404);
    await expectStatus(carl(`/orgs/${partnerId}/members`), 404);
    await expectStatus(carl(`/orgs/${partnerId}/spaces`, 'POST', { title: 'No' }), 404);
    await expectStatus(carl(`/spaces/${partnerSpace}`), 404);
    await expectStatus(carl(`/spaces/${partnerSpace}/change-requests`), 404);

    const members = await expectStatus(
      admin<Page<{ id: string; role: string }>>(`/orgs/${partnerId}/members?order=asc`),
      200,
    );
    expect(members.items.map((member) => [member.id, member.role])).toEqual([
      [userIdOf('Rita Reviewer'), 'admin'],
      [userIdOf('Admin'), 'admin'],
      [userIdOf('Rea Reader'), 'edit'],
    ]);
    // A ping marks the caller as seen in that organization only.
    await expectStatus(rea(`/orgs/${partnerId}/ping`, 'POST'), 200);
    const seen = (path: string) => expectStatus(admin<{ lastSeenAt?: string }>(path), 200);
    expect((await seen(`/orgs/${partnerId}/members/${userIdOf('Rea Reader')}`)).lastSeenAt).toBeDefined();
    expect((await seen(`/orgs/${test.orgId}/members/${userIdOf('Rea Reader')}`)).lastSeenAt).toBeUndefined();
  });

  it('transfers a space to another organization with its change requests and comments', async () => {
    const spaceId = await newSpace(admin, test.orgId, 'Moving handbook');
    const changeRequest = addChangeRequest(test.emulator, spaceId, userIdOf('Admin'));
    await expectStatus(admin(`/spaces/${spaceId}/comments`, 'POST', { body: { markdown: 'Keep me' } }), 200);
    expect(
      (await expectStatus(carl<Page<{ id: string }>>(`/spaces/${spaceId}/change-requests`), 200)).items,
    ).toHaveLength(1);

    // Admin in the source is needed, and admin in the target.
    await expectStatus(rita(`/spaces/${spaceId}/transfer`, 'POST', { organization: partnerId }), 403);
    const ritasSpace = await newSpace(rita, partnerId, 'Rita keeps this');
    await expectStatus(rita(`/spaces/${ritasSpace}/transfer`, 'POST', { organization: test.orgId }), 403);
    await expectStatus(admin(`/spaces/${spaceId}/transfer`, 'POST', { organization: 'org_unknown' }), 404);
    await expectStatus(admin(`/spaces/${spaceId}/transfer`, 'POST', {}), 400);
    // A space that a site of its organization publishes stays.
    const published = await newSpace(admin, test.orgId, 'Published');
    await expectStatus(
      admin(`/orgs/${test.orgId}/sites`, 'POST', { title: 'Public docs', spaces: [published] }),
      201,
    );
    await expectStatus(admin(`/spaces/${published}/transfer`, 'POST', { organization: partnerId }), 412);
    expect((await expectStatus(admin<Space>(`/spaces/${published}`), 200)).organization).toBe(test.orgId);

    const moved = await expectStatus(
      admin<Space>(`/spaces/${spaceId}/transfer`, 'POST', { organization: partnerId }),
      200,
    );
    expect(moved).toMatchObject({ id: spaceId, organization: partnerId });

    // It went with what it holds: Rita (admin there now) sees its change request and comment.
    const changeRequests = await expectStatus(
      rita<Page<{ id: string }>>(`/spaces/${spaceId}/change-requests`),
      200,
    );
    expect(changeRequests.items.map((cr) => cr.id)).toEqual([changeRequest.id]);
    await expectStatus(rita(`/spaces/${spaceId}/change-requests/${changeRequest.number}`), 200);
    const comments = await expectStatus(
      rita<Page<{ body: { markdown?: string } }>>(`/spaces/${spaceId}/comments`),
      200,
    );
    expect(comments.items.map((comment) => comment.body.markdown)).toEqual(['Keep me']);
    expect((await expectStatus(rita<Space>(`/spaces/${spaceId}`), 200)).permissions.admin).toBe(true);
    const ritasSpaces = await expectStatus(
      rita<Page<{ space: { id: string } }>>(`/orgs/${partnerId}/members/${userIdOf('Rita Reviewer')}/spaces`),
      200,
    );
    expect(ritasSpaces.items.map((item) => item.space.id)).toContain(spaceId);
    // Carl, a member of the old organization only, no longer finds it.
    await expectStatus(carl(`/spaces/${spaceId}`), 404);
    await expectStatus(carl(`/spaces/${spaceId}/change-requests`), 404);
  });

  it('transfers a space into a collection of the target organization', async () => {
    const spaceId = await newSpace(admin, test.orgId, 'Into a collection');
    const homeCollection = (
      await expectStatus(
        admin<{ id: string }>(`/orgs/${test.orgId}/collections`, 'POST', { title: 'Home' }),
        201,
      )
    ).id;
    const partnerCollection = (
      await expectStatus(
        admin<{ id: string }>(`/orgs/${partnerId}/collections`, 'POST', { title: 'Guides' }),
        201,
      )
    ).id;
    // A collection of another organization than the target is not found there.
    await expectStatus(
      admin(`/spaces/${spaceId}/transfer`, 'POST', { organization: partnerId, collection: homeCollection }),
      404,
    );
    const moved = await expectStatus(
      admin<Space>(`/spaces/${spaceId}/transfer`, 'POST', {
        organization: partnerId,
        collection: partnerCollection,
      }),
      200,
    );
    expect(moved).toMatchObject({ organization: partnerId, parent: partnerCollection });
    const inCollection = await expectStatus(
      admin<Page<Space>>(`/collections/${partnerCollection}/spaces`),
      200,
    );
    expect(inCollection.items.map((space) => space.id)).toEqual([spaceId]);
    // Back, straight into a collection of the first organization.
    const back = await expectStatus(
      admin<Space>(`/spaces/${spaceId}/transfer`, 'POST', {
        organization: test.orgId,
        collection: homeCollection,
      }),
      200,
    );
    expect(back).toMatchObject({ organization: test.orgId, parent: homeCollection });
    // Within its organization, a transfer without a collection moves it to the top level.
    const top = await expectStatus(
      admin<Space>(`/spaces/${spaceId}/transfer`, 'POST', { organization: test.orgId }),
      200,
    );
    expect(top).toMatchObject({ organization: test.orgId });
    expect(top.parent).toBeUndefined();
  });

  it('moves a space into a collection of its organization, out again, and among its siblings', async () => {
    const collection = (
      await expectStatus(
        admin<{ id: string }>(`/orgs/${test.orgId}/collections`, 'POST', { title: 'Shelf' }),
        201,
      )
    ).id;
    const foreign = (
      await expectStatus(
        admin<{ id: string }>(`/orgs/${partnerId}/collections`, 'POST', { title: 'Theirs' }),
        201,
      )
    ).id;
    const first = await newSpace(admin, test.orgId, 'First');
    const second = await newSpace(admin, test.orgId, 'Second');

    await expectStatus(admin(`/spaces/${first}/move`, 'POST', { parent: foreign }), 404);
    await expectStatus(admin(`/spaces/${first}/move`, 'POST', { parent: 'col_unknown' }), 404);
    await expectStatus(admin(`/spaces/${first}/move`, 'POST', {}), 400);
    await expectStatus(rea(`/spaces/${first}/move`, 'POST', { parent: collection }), 403);

    expect(
      await expectStatus(admin<Space>(`/spaces/${first}/move`, 'POST', { parent: collection }), 200),
    ).toMatchObject({ parent: collection });
    await expectStatus(admin(`/spaces/${second}/move`, 'POST', { parent: collection }), 200);
    const order = async () =>
      (await expectStatus(admin<Page<Space>>(`/collections/${collection}/spaces`), 200)).items.map(
        (space) => space.id,
      );
    expect(await order()).toEqual([first, second]);
    // A sibling in another parent is no place to go: 400; one that does not exist: 404.
    await expectStatus(
      admin(`/spaces/${second}/move`, 'POST', {
        position: { before: { type: 'space', space: spaceOutside } },
      }),
      400,
    );
    await expectStatus(
      admin(`/spaces/${second}/move`, 'POST', {
        position: { before: { type: 'space', space: 'spc_unknown' } },
      }),
      404,
    );
    await expectStatus(
      admin(`/spaces/${second}/move`, 'POST', { position: { before: { type: 'space', space: first } } }),
      200,
    );
    expect(await order()).toEqual([second, first]);

    // In-collection visibility goes with the collection.
    await expectStatus(admin(`/spaces/${first}`, 'PATCH', { visibility: 'in-collection' }), 200);
    const out = await expectStatus(admin<Space>(`/spaces/${first}/move`, 'POST', { parent: null }), 200);
    expect(out.parent).toBeUndefined();
    expect(out.visibility).toBe('private');
    expect(await order()).toEqual([second]);
  });
});

describe('organizations given at start, kept in the state file', () => {
  it('finds the same organizations again after a restart, with the roles given', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'docsync-orgs-'));
    try {
      const statePath = join(dir, 'state.json');
      const options = {
        members: [
          { name: 'Owner', token: 'owner-token', role: 'admin' as const },
          { name: 'Guest', token: 'guest-token', role: 'read' as const },
        ],
        organizations: [{ title: 'Second org', members: [{ name: 'Guest', role: 'admin' as const }] }],
        log: pino({ level: 'silent' }),
        statePath,
      };
      const first = await createEmulator(options);
      const ids = { orgId: first.orgId, second: first.organizationIds[0] };
      const listed = async (emulator: typeof first, token: string) => {
        const answer = await emulator.app.inject({
          url: '/v1/orgs',
          headers: { authorization: `Bearer ${token}` },
        });
        expect(checkResponse('GET', '/v1/orgs', answer.statusCode, answer.json()).errors).toEqual([]);
        return (answer.json() as Page<Organization>).items.map((org) => [org.id, org.permissions.admin]);
      };
      expect(await listed(first, 'guest-token')).toEqual([
        [ids.orgId, false],
        [ids.second, true],
      ]);
      expect(await listed(first, 'owner-token')).toEqual([[ids.orgId, true]]);
      await first.close();

      const again = await createEmulator(options);
      try {
        expect({ orgId: again.orgId, second: again.organizationIds[0] }).toEqual(ids);
        expect(Object.keys(again.state.orgs)).toHaveLength(2);
        expect(await listed(again, 'guest-token')).toEqual([
          [ids.orgId, false],
          [ids.second, true],
        ]);
      } finally {
        await again.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
