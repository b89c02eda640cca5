// Collections in the local service through docsync's client: nesting, the spaces they hold, moves
// among siblings and to other parents, transfer to another organization, deletion with what they
// hold; limits, roles and unknown ids; every answer checked against the public document.
import { describe, expect, it } from 'vitest';
import type { Collection } from '../../../src/api/schemas/collection-schema.js';
import type { Space } from '../../../src/api/schemas/space-schema.js';
import { expectApiStatus } from '../../support/api-error-of.js';
import { documented, documentedError } from '../../support/documented-answer.js';
import { serviceAs } from '../../support/service-request.js';
import { testApiClient } from '../../support/test-api-client.js';
import { startTwoOrgEmulator } from '../../support/two-org-emulator.js';

const ORG_COLLECTIONS = '/orgs/{organizationId}/collections';
const COLLECTION = '/collections/{collectionId}';

describe('collections in the local service', async () => {
  const test = await startTwoOrgEmulator();
  const { client } = testApiClient(test);
  const { client: reviewerClient } = testApiClient(test, test.tokens.reviewer);
  const { client: readerClient } = testApiClient(test, test.tokens.reader);
  const admin = serviceAs(test, test.tokens.admin);

  const create = async (title: string, parent?: string) =>
    documented(
      'POST',
      ORG_COLLECTIONS,
      201,
      await client.collections.create(test.orgId, parent === undefined ? { title } : { title, parent }),
    );
  const get = async (id: string) => documented('GET', COLLECTION, 200, await client.collections.get(id));
  const titles = async (nested?: boolean) => {
    const page = await client.collections.list(test.orgId, nested === undefined ? {} : { nested });
    return documented('GET', ORG_COLLECTIONS, 200, page).items.map((collection) => collection.title);
  };
  const newSpace = async (title: string, parent?: string): Promise<Space> => {
    const space = await client.spaces.create(test.orgId, { title });
    if (parent === undefined) return space;
    const moved = await admin<Space>(`/spaces/${space.id}/move`, 'POST', { parent });
    expect(moved.status).toBe(200);
    return documented('POST', '/spaces/{spaceId}/move', 200, moved.body);
  };
  const spacesIn = async (id: string) =>
    documented('GET', `${COLLECTION}/spaces`, 200, await client.collections.listSpaces(id)).items.map(
      (space) => space.title,
    );

  it('creates collections at the top level and nested, and lists them all or the top level only', async () => {
    const guides = await create('Guides');
    expect(guides).toMatchObject({
      object: 'collection',
      title: 'Guides',
      organization: test.orgId,
      defaultLevel: null,
      permissions: { view: true, admin: true, viewInviteLinks: true, create: true },
    });
    expect(guides.parent).toBeUndefined();
    expect(guides.urls.location).toBe(`${test.baseUrl}/collections/${guides.id}`);
    const tutorials = await create('Tutorials', guides.id);
    const advanced = await create('Advanced', tutorials.id);
    expect(await get(advanced.id)).toMatchObject({ parent: tutorials.id, organization: test.orgId });
    await create('Reference');

    expect(await titles()).toEqual(['Guides', 'Tutorials', 'Advanced', 'Reference']);
    expect(await titles(true)).toEqual(['Guides', 'Tutorials', 'Advanced', 'Reference']);
    expect(await titles(false)).toEqual(['Guides', 'Reference']);

    const first = documented(
      'GET',
      ORG_COLLECTIONS,
      200,
      await client.collections.list(test.orgId, { limit: 3 }),
    );
    expect(first.items.map((each) => each.title)).toEqual(['Guides', 'Tutorials', 'Advanced']);
    const rest = await client.collections.list(test.orgId, { limit: 3, page: first.next?.page });
    expect(documented('GET', ORG_COLLECTIONS, 200, rest).items.map((each) => each.title)).toEqual([
      'Reference',
    ]);
    const all: Collection[] = [];
    for await (const collection of client.collections.listAll(test.orgId, { nested: false }))
      all.push(collection);
    expect(all.map((each) => each.title)).toEqual(['Guides', 'Reference']);

    // Permissions follow the caller's role in the organization.
    const asReader = documented('GET', COLLECTION, 200, await readerClient.collections.get(guides.id));
    expect(asReader.permissions).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false });
  });

  it('refuses what the limits, the roles and unknown ids do not allow', async () => {
    const parent = await create('Limits');
    await expectApiStatus(client.collections.create(test.orgId, { title: 'x'.repeat(51) }), 400);
    await expectApiStatus(client.collections.update(parent.id, { description: 'd'.repeat(101) }), 400);
    await expectApiStatus(client.collections.list(test.orgId, { limit: 1001 }), 400);
    await expectApiStatus(client.collections.create(test.orgId, { parent: 'col_unknown' }), 404);
    await expectApiStatus(readerClient.collections.create(test.orgId, { title: 'Mine' }), 403);
    await expectApiStatus(reviewerClient.collections.update(parent.id, { title: 'Theirs' }), 403);
    await expectApiStatus(reviewerClient.collections.delete(parent.id), 403);
    await expectApiStatus(client.collections.get('col_unknown'), 404);
    await expectApiStatus(client.collections.listSpaces('col_unknown'), 404);

    // The error answers have the document's shape.
    const message = await documentedError(
      'POST',
      `${COLLECTION}/move`,
      admin(`/collections/${parent.id}/move`, 'POST', { parent: 'col_unknown' }),
      404,
    );
    expect(message).toContain('col_unknown');
    expect(
      await documentedError(
        'POST',
        `${COLLECTION}/move`,
        admin(`/collections/${parent.id}/move`, 'POST', {}),
        400,
      ),
    ).toContain('parent');
    expect(
      await documentedError(
        'PATCH',
        COLLECTION,
        admin(`/collections/${parent.id}`, 'PATCH', { title: 't'.repeat(51) }),
        400,
      ),
    ).toContain('title');
  });

  it('changes the title, description and default level of a collection', async () => {
    const collection = await create('Handbook');
    const changed = await client.collections.update(collection.id, {
      title: 'Team handbook',
      description: 'How we work',
      defaultLevel: 'comment',
    });
    expect(documented('PATCH', COLLECTION, 200, changed)).toMatchObject({
      title: 'Team handbook',
      description: 'How we work',
      defaultLevel: 'comment',
    });
    const inherited = await client.collections.update(collection.id, { defaultLevel: 'inherit' });
    expect(documented('PATCH', COLLECTION, 200, inherited).defaultLevel).toBe('inherit');
    expect(await get(collection.id)).toMatchObject({ title: 'Team handbook', defaultLevel: 'inherit' });
  });

  it('holds spaces: a space moved into a collection names it as its parent and is listed there', async () => {
    const product = await create('Product');
    const api = await newSpace('API', product.id);
    const sdk = await newSpace('SDK', product.id);
    await newSpace('Outside');
    expect(api.parent).toBe(product.id);
    expect(await spacesIn(product.id)).toEqual(['API', 'SDK']);

    const page = documented(
      'GET',
      `${COLLECTION}/spaces`,
      200,
      await client.collections.listSpaces(product.id, { limit: 1 }),
    );
    expect(page.items.map((space) => space.title)).toEqual(['API']);
    const listed: string[] = [];
    for await (const space of client.collections.listSpacesAll(product.id)) listed.push(space.title);
    expect(listed).toEqual(['API', 'SDK']);

    // A deleted space is no longer listed in its collection.
    expect((await admin(`/spaces/${sdk.id}`, 'DELETE')).status).toBe(205);
    expect(await spacesIn(product.id)).toEqual(['API']);
  });

  it('moves a collection to another parent and among its siblings, never into itself', async () => {
    const root = await create('Moves');
    const a = await create('A', root.id);
    const b = await create('B', root.id);
    const space = await newSpace('S', root.id);
    const c = await create('C', root.id);
    const order = async () => (await titles()).filter((title) => ['A', 'B', 'C'].includes(title));
    expect(await order()).toEqual(['A', 'B', 'C']);

    const moved = await client.collections.move(c.id, {
      position: { before: { type: 'collection', collection: a.id } },
    });
    expect(documented('POST', `${COLLECTION}/move`, 200, moved).parent).toBe(root.id);
    expect(await order()).toEqual(['C', 'A', 'B']);
    // Before or after a space among the children of the same parent.
    await client.collections.move(c.id, { position: { after: { type: 'space', space: space.id } } });
    expect(await order()).toEqual(['A', 'B', 'C']);
    await client.collections.move(a.id, { position: { after: { type: 'collection', collection: b.id } } });
    expect(await order()).toEqual(['B', 'A', 'C']);

    // Into a sibling, then out to the top level.
    const nested = await client.collections.move(b.id, { parent: c.id });
    expect(documented('POST', `${COLLECTION}/move`, 200, nested).parent).toBe(c.id);
    expect((await get(b.id)).parent).toBe(c.id);
    const top = documented(
      'POST',
      `${COLLECTION}/move`,
      200,
      await client.collections.move(b.id, { parent: null }),
    );
    expect(top.parent).toBeUndefined();
    expect(await titles(false)).toContain('B');

    // Never into itself or a collection nested in it; siblings must be children of the new parent.
    await client.collections.move(c.id, { parent: a.id });
    await expectApiStatus(client.collections.move(a.id, { parent: c.id }), 400);
    await expectApiStatus(client.collections.move(a.id, { parent: a.id }), 400);
    await expectApiStatus(
      client.collections.move(a.id, { position: { before: { type: 'collection', collection: b.id } } }),
      400,
    );
    await expectApiStatus(
      client.collections.move(a.id, { position: { before: { type: 'space', space: 'spc_unknown' } } }),
      404,
    );
    await expectApiStatus(reviewerClient.collections.move(a.id, { parent: null }), 403);
  });

  it('transfers a collection, with the collections and spaces in it, to another organization', async () => {
    const outer = await create('Shared', (await create('Holder')).id);
    const inner = await create('Shared inner', outer.id);
    const space = await newSpace('Shared space', inner.id);

    // The reviewer only reads in the partner organization; the admin is admin in both.
    await expectApiStatus(reviewerClient.collections.transfer(outer.id, test.partnerOrgId), 403);
    await expectApiStatus(client.collections.transfer(outer.id, 'org_unknown'), 404);
    await expectApiStatus(client.collections.transfer(outer.id, test.orgId), 400);

    const moved = documented(
      'POST',
      `${COLLECTION}/transfer`,
      200,
      await client.collections.transfer(outer.id, test.partnerOrgId),
    );
    expect(moved).toMatchObject({ organization: test.partnerOrgId });
    expect(moved.parent).toBeUndefined();
    expect(await get(inner.id)).toMatchObject({ organization: test.partnerOrgId, parent: outer.id });
    const inPartner = await client.spaces.get(space.id);
    expect(inPartner).toMatchObject({ organization: test.partnerOrgId, parent: inner.id });
    const partnerTop = await client.collections.list(test.partnerOrgId, { nested: false });
    expect(documented('GET', ORG_COLLECTIONS, 200, partnerTop).items.map((each) => each.id)).toEqual([
      outer.id,
    ]);
    expect(await titles()).not.toContain('Shared');
    // The reviewer reads it there, with the permissions of a reader.
    const asReviewer = documented('GET', COLLECTION, 200, await reviewerClient.collections.get(outer.id));
    expect(asReviewer.permissions).toMatchObject({ view: true, admin: false });
  });

  it('deletes a collection with the collections nested in it and the spaces they hold', async () => {
    const doomed = await create('Doomed');
    const child = await create('Doomed child', doomed.id);
    const kept = await newSpace('Kept for a while', child.id);

    await client.collections.delete(doomed.id);
    await expectApiStatus(client.collections.get(doomed.id), 404);
    await expectApiStatus(client.collections.get(child.id), 404);
    await expectApiStatus(client.collections.delete(doomed.id), 404);
    // Its spaces are deleted as a space is: restorable, then at the top level.
    const deleted = await admin<Space>(`/spaces/${kept.id}`);
    expect(deleted.body).toMatchObject({ id: kept.id });
    expect(deleted.body.deletedAt).toBeDefined();
    expect(deleted.body.parent).toBeUndefined();
    const restored = await admin<Space>(`/spaces/${kept.id}/restore`, 'POST');
    expect(restored.status).toBe(200);
    expect(restored.body.parent).toBeUndefined();
  });
});
