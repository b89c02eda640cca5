// Sites in the local service, driven through docsync's sites client: creating them (with spaces, or
// a new space of their own), reading, filtering and paging the list, settings and their limits, roles,
// deletion, the adaptive schema and the published view. Every answer is checked against the public
// document (site-test-world.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/api-error.js';
import { apiErrorOf, expectApiStatus } from '../../support/api-error-of.js';
import { collect } from '../../support/collect.js';
import { bodyOf, serviceAs } from '../../support/service-request.js';
import { startSiteTestWorld } from '../../support/site-test-world.js';
import { advanceClock } from '../../support/test-api-client.js';
import { addTestOrganization } from '../../support/test-organization.js';

const DAY_MS = 24 * 60 * 60 * 1000;

const BETA_SCHEMA = {
  type: 'object',
  properties: {
    isBetaUser: { type: 'boolean', description: 'Sees the beta pages' },
    plan: { type: 'string', enum: ['free', 'pro'], description: 'Plan of the visitor' },
    unsigned: {
      type: 'object',
      description: 'Unsigned claims of the site visitor.',
      properties: { prefersDarkMode: { type: 'boolean', description: 'Asked for dark mode' } },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

describe('sites in the local service', async () => {
  const world = await startSiteTestWorld();
  const { admin, reviewer, reader, orgId } = world;
  // Calls the client does not make (deleting a space), straight to the service.
  const direct = serviceAs(world.test, world.test.tokens.admin);
  afterEach(() => {
    world.expectDocumented();
  });

  it('creates a site (201) with the defaults, reads it back and lists it', async () => {
    const site = await admin.sites.create(orgId, { title: 'Handbook site' });
    expect(site).toMatchObject({
      object: 'site',
      type: 'basic',
      title: 'Handbook site',
      visibility: 'public',
      published: false,
      siteSpaces: 0,
    });
    expect(world.proxy.answers.at(-1)?.status).toBe(201);
    expect(site.urls?.published).toBeUndefined();
    expect(await admin.sites.get(orgId, site.id)).toEqual(site);
    const all = await collect(admin.sites.listAll(orgId));
    expect(all.map((item) => item.id)).toContain(site.id);
  });

  it('creates a site from spaces: each a site space at the top level, the first the default', async () => {
    const guide = await world.newSpace('User Guide');
    const api = await world.newSpace('API');
    const site = await admin.sites.create(orgId, { title: 'Two spaces', spaces: [guide, api] });
    expect(site.siteSpaces).toBe(2);
    const { items } = await admin.sites.siteSpaces.list(orgId, site.id);
    expect(items.map((item) => [item.space.id, item.path, item.default, item.section])).toEqual([
      [guide, 'user-guide', true, undefined],
      [api, 'api', false, undefined],
    ]);
    const defaults = await admin.sites.siteSpaces.list(orgId, site.id, { default: true });
    expect(defaults.items.map((item) => item.space.id)).toEqual([guide]);
    const others = await admin.sites.siteSpaces.list(orgId, site.id, { default: false });
    expect(others.items.map((item) => item.space.id)).toEqual([api]);
  });

  it('creates a site with a new space of its own when asked with the enumerated `spaces`', async () => {
    const site = await admin.sites.create(orgId, { title: 'Fresh docs', spaces: 'new' });
    expect(site.siteSpaces).toBe(1);
    const [siteSpace] = (await admin.sites.siteSpaces.list(orgId, site.id)).items;
    expect(siteSpace?.space.title).toBe('Fresh docs');
    expect((await admin.spaces.get(siteSpace?.space.id ?? '')).organization).toBe(orgId);
  });

  it('refuses spaces that do not exist, are deleted or belong to another organization (404 naming them)', async () => {
    const missing = await expectApiStatus(admin.sites.create(orgId, { spaces: ['spc_nope'] }), 404);
    expect(missing.message).toMatch(/space spc_nope/);
    const gone = await world.newSpace('Gone');
    await bodyOf(direct(`/spaces/${gone}`, 'DELETE'), 205);
    expect((await expectApiStatus(admin.sites.create(orgId, { spaces: [gone] }), 404)).message).toMatch(gone);
    const otherOrg = addTestOrganization(world.test, 'Elsewhere', [{ name: 'Admin', role: 'admin' }]);
    const foreign = (await admin.spaces.create(otherOrg, { title: 'Foreign' })).id;
    const refused = await expectApiStatus(admin.sites.create(orgId, { spaces: [foreign] }), 404);
    expect(refused.message).toMatch(foreign);
    const twice = await world.newSpace('Twice');
    expect(
      (await expectApiStatus(admin.sites.create(orgId, { spaces: [twice, twice] }), 400)).message,
    ).toMatch(/spaces/);
    // Nothing was created by the refused calls.
    const titles = (await collect(admin.sites.listAll(orgId))).map((site) => site.title);
    expect(titles.filter((title) => title === 'Untitled site')).toEqual([]);
  });

  it('filters the list by space, title, published and type, and pages it', async () => {
    const shared = await world.newSpace('Shared');
    const live = await admin.sites.create(orgId, { title: 'Filter Live', spaces: [shared], type: 'premium' });
    const draft = await admin.sites.create(orgId, { title: 'Filter Draft' });
    expect(await admin.sites.publish(orgId, live.id)).toMatchObject({ object: 'site', published: true });
    expect((await admin.sites.get(orgId, live.id)).urls?.published).toMatch(/^http/);
    const ids = async (options: Parameters<typeof admin.sites.list>[1]) =>
      (await admin.sites.list(orgId, { limit: 1000, ...options })).items.map((site) => site.id);
    expect(await ids({ space: shared })).toEqual([live.id]);
    expect(await ids({ title: 'filter' })).toEqual([live.id, draft.id]);
    expect(await ids({ title: 'filter', published: true })).toEqual([live.id]);
    expect(await ids({ title: 'filter', published: false })).toEqual([draft.id]);
    expect(await ids({ title: 'filter', type: ['premium'] })).toEqual([live.id]);
    expect(await ids({ title: 'filter', type: ['basic', 'premium'] })).toEqual([live.id, draft.id]);
    await admin.sites.unpublish(orgId, live.id);
    expect(await ids({ title: 'filter', published: true })).toEqual([]);

    const first = await admin.sites.list(orgId, { title: 'filter', limit: 1 });
    expect(first.items.map((site) => site.id)).toEqual([live.id]);
    const second = await admin.sites.list(orgId, { title: 'filter', limit: 1, page: first.next?.page });
    expect(second.items.map((site) => site.id)).toEqual([draft.id]);
    expect(second.next).toBeUndefined();
    await expectApiStatus(admin.sites.list(orgId, { limit: 1001 }), 400);
  });

  it('patches settings within the limits; beyond them a 400 names the field and changes nothing', async () => {
    const site = await admin.sites.create(orgId, { title: 'Settings' });
    const patched = await admin.sites.update(orgId, site.id, {
      title: 'S'.repeat(128),
      visibility: 'unlisted',
      basename: 'b'.repeat(100),
      adaptiveContent: { enabled: true },
      proxy: 'example.com/docs',
    });
    expect(patched).toMatchObject({
      title: 'S'.repeat(128),
      visibility: 'unlisted',
      basename: 'b'.repeat(100),
      adaptiveContent: { enabled: true },
      proxy: { origin: 'example.com/docs' },
    });
    for (const [changes, field] of [
      [{ title: 'S' }, /title/],
      [{ title: 'S'.repeat(129) }, /title/],
      [{ basename: '' }, /basename/],
      [{ basename: 'b'.repeat(101) }, /basename/],
      [{ proxy: 'not a host' }, /proxy/],
      [{ proxy: `example.com/${'d'.repeat(512)}` }, /proxy/],
      [{ visibility: 'private' }, /visibility/],
    ] as const) {
      const error = await expectApiStatus(admin.sites.update(orgId, site.id, changes as never), 400);
      expect(error.message).toMatch(field);
    }
    expect((await admin.sites.get(orgId, site.id)).title).toBe('S'.repeat(128));
    const cleared = await admin.sites.update(orgId, site.id, { proxy: null });
    expect(cleared.proxy).toBeUndefined();
  });

  it('lets readers read, and needs the create role to change a site and admin to delete one', async () => {
    const site = await admin.sites.create(orgId, { title: 'Guarded' });
    expect((await reader.sites.get(orgId, site.id)).id).toBe(site.id);
    expect((await reader.sites.list(orgId)).items.length).toBeGreaterThan(0);
    await expectApiStatus(reader.sites.create(orgId, { title: 'Mine' }), 403);
    await expectApiStatus(reviewer.sites.create(orgId, { title: 'Mine' }), 403);
    await expectApiStatus(reviewer.sites.update(orgId, site.id, { title: 'Mine' }), 403);
    await expectApiStatus(reviewer.sites.putAdaptiveSchema(orgId, site.id, BETA_SCHEMA), 403);
    await expectApiStatus(reviewer.sites.publish(orgId, site.id), 403);
    await expectApiStatus(reviewer.sites.delete(orgId, site.id), 403);
    expect((await admin.sites.get(orgId, site.id)).title).toBe('Guarded');
  });

  it('answers 404 for unknown sites, and for sites asked for under another organization', async () => {
    await expectApiStatus(admin.sites.get(orgId, 'site_unknown'), 404);
    await expectApiStatus(admin.sites.update(orgId, 'site_unknown', { title: 'Nope' }), 404);
    await expectApiStatus(admin.sites.getPublished(orgId, 'site_unknown'), 404);
    await expectApiStatus(admin.sites.getAdaptiveSchema(orgId, 'site_unknown'), 404);
    await expectApiStatus(admin.sites.list('org_unknown'), 404);
    const site = await admin.sites.create(orgId, { title: 'Known' });
    await expectApiStatus(admin.sites.get('org_unknown', site.id), 404);
    const otherOrg = addTestOrganization(world.test, 'Second home', [{ name: 'Admin', role: 'admin' }]);
    await expectApiStatus(admin.sites.get(otherOrg, site.id), 404);
    expect((await admin.sites.list(otherOrg)).items).toEqual([]);
  });

  it('deletes a site (205), then it is gone; deleting it again answers 204; its spaces stay', async () => {
    const space = await world.newSpace('Survivor');
    const site = await admin.sites.create(orgId, { title: 'Short lived', spaces: [space] });
    await admin.sites.delete(orgId, site.id);
    expect(world.proxy.answers.at(-1)?.status).toBe(205);
    await expectApiStatus(admin.sites.get(orgId, site.id), 404);
    await admin.sites.delete(orgId, site.id);
    expect(world.proxy.answers.at(-1)?.status).toBe(204);
    expect((await admin.spaces.get(space)).id).toBe(space);
    expect((await admin.sites.list(orgId, { space, limit: 1000 })).items).toEqual([]);
  });

  it('keeps an adaptive schema: empty at first, replaced by PUT, refused when it is not one', async () => {
    const site = await admin.sites.create(orgId, { title: 'Adaptive' });
    const empty = await reader.sites.getAdaptiveSchema(orgId, site.id);
    expect(empty.jsonSchema).toMatchObject({ type: 'object', additionalProperties: false });
    const put = await admin.sites.putAdaptiveSchema(orgId, site.id, BETA_SCHEMA);
    expect(put.jsonSchema).toEqual(BETA_SCHEMA);
    expect((await reader.sites.getAdaptiveSchema(orgId, site.id)).jsonSchema).toEqual(BETA_SCHEMA);
    const refused = await expectApiStatus(
      admin.sites.putAdaptiveSchema(orgId, site.id, {
        type: 'object',
        properties: {},
        additionalProperties: true,
      }),
      400,
    );
    expect(refused.message).toMatch(/jsonSchema/);
    expect((await admin.sites.getAdaptiveSchema(orgId, site.id)).jsonSchema).toEqual(BETA_SCHEMA);
  });

  it('publishes a view derived from the structure: site spaces, or sections, without deleted spaces', async () => {
    const home = await world.newSpace('Home');
    const old = await world.newSpace('Old');
    const site = await admin.sites.create(orgId, { title: 'Viewed', spaces: [home, old] });
    const before = await reader.sites.getPublished(orgId, site.id);
    expect(before.site.published).toBe(false);
    expect(before.structure.type).toBe('siteSpaces');
    expect(before.structure.structure.map((item) => item.object)).toEqual(['site-space', 'site-space']);

    await admin.sites.publish(orgId, site.id);
    const flat = await reader.sites.getPublished(orgId, site.id);
    const urls = flat.structure.structure.map(
      (item) => (item as { urls?: { published?: string } }).urls?.published,
    );
    expect(urls[0]).toBe(flat.site.urls?.published);
    expect(urls[1]).toBe(`${flat.site.urls?.published}/old`);

    await admin.sites.sections.create(orgId, site.id, { spaceId: await world.newSpace('Reference') });
    await bodyOf(direct(`/spaces/${old}`, 'DELETE'), 205);
    const sectioned = await reader.sites.getPublished(orgId, site.id);
    expect(sectioned.structure.type).toBe('sections');
    const sections = sectioned.structure.structure as Array<{
      title: string;
      siteSpaces: Array<{ path: string }>;
    }>;
    expect(sections.map((section) => [section.title, section.siteSpaces.map((item) => item.path)])).toEqual([
      ['Home', ['home']],
      ['Reference', ['reference']],
    ]);
    expect(sectioned.customizations.site).toMatchObject({ title: 'Viewed' });
  });

  it('resolves the published addresses of a share-link site only with a share key', async () => {
    const site = await admin.sites.create(orgId, {
      title: 'Secret',
      visibility: 'share-link',
      spaces: [await world.newSpace('Secret space')],
    });
    await admin.sites.publish(orgId, site.id);
    const without = await reader.sites.getPublished(orgId, site.id);
    expect(without.site.urls?.published).toBeUndefined();
    const withKey = await reader.sites.getPublished(orgId, site.id, { shareKey: 'k3y' });
    expect(withKey.site.urls?.published).toMatch(/~s\/k3y$/);
    const listed = await reader.sites.siteSpaces.list(orgId, site.id, { shareKey: 'k3y' });
    expect(listed.items[0]?.urls?.published).toMatch(/~s\/k3y$/);
  });

  it('refuses a new site whose title is shorter than 2 characters (400 naming it)', async () => {
    const error = await apiErrorOf(admin.sites.create(orgId, { title: 'X' }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/title/);
  });
  it('forgets the site spaces of a space once its restore window has passed', async () => {
    const kept = await world.newSpace('Kept');
    const dropped = await world.newSpace('Dropped');
    const site = await admin.sites.create(orgId, { title: 'Forgetful', spaces: [kept, dropped] });
    const [, droppedSiteSpace] = (await admin.sites.siteSpaces.list(orgId, site.id)).items;
    await bodyOf(direct(`/spaces/${dropped}`, 'DELETE'), 205);
    // Deleted but restorable: still listed, with its deletedAt; no longer published.
    const listed = (await admin.sites.siteSpaces.list(orgId, site.id)).items;
    expect(listed.map((item) => [item.space.id, item.space.deletedAt === undefined])).toEqual([
      [kept, true],
      [dropped, false],
    ]);
    const published = await admin.sites.getPublished(orgId, site.id);
    expect(published.structure.structure.map((item) => item.id)).toEqual([listed[0]?.id]);

    await advanceClock(world.test, 8 * DAY_MS);
    expect((await admin.sites.siteSpaces.list(orgId, site.id)).items.map((item) => item.space.id)).toEqual([
      kept,
    ]);
    expect((await admin.sites.get(orgId, site.id)).siteSpaces).toBe(1);
    await expectApiStatus(
      admin.sites.siteSpaces.update(orgId, site.id, droppedSiteSpace?.id ?? '', { path: 'back' }),
      404,
    );
  });
});
