// The structure of a site in the local service, driven through docsync's sites client: sections and
// their variants (site spaces), the default section and default variants, section groups, moves
// before and after siblings, deletions, limits, roles and unknown ids. Every answer is checked against
// the public document (site-test-world.ts).
import { afterEach, describe, expect, it } from 'vitest';
import type { SiteSection } from '../../../src/api/schemas/site-section-schema.js';
import { expectApiStatus } from '../../support/api-error-of.js';
import { collect } from '../../support/collect.js';
import { startSiteTestWorld } from '../../support/site-test-world.js';

describe('the structure of sites in the local service', async () => {
  const world = await startSiteTestWorld();
  const { admin, reviewer, reader, orgId } = world;
  afterEach(() => {
    world.expectDocumented();
  });

  const sections = admin.sites.sections;
  const groups = admin.sites.sectionGroups;
  const siteSpaces = admin.sites.siteSpaces;
  const titlesOf = async (siteId: string) =>
    (await sections.list(orgId, siteId)).items.map((section) => section.title);
  const variantsOf = (section: SiteSection | undefined) =>
    section?.siteSpaces.map((siteSpace) => [siteSpace.space.title, siteSpace.default]);

  /** A published site with sections Guides (space Guides 1) and API (space API 1). */
  async function siteWithSections(title: string) {
    const site = await admin.sites.create(orgId, { title });
    const guides = await sections.create(orgId, site.id, { spaceId: await world.newSpace('Guides 1') });
    const api = await sections.create(orgId, site.id, {
      spaceId: await world.newSpace('API 1'),
      title: 'API',
    });
    return { site, guides, api };
  }

  it('creates a section (201) with its space as the first and default variant; the first is the default section', async () => {
    const { site, guides, api } = await siteWithSections('Sectioned');
    expect(world.proxy.answers.at(-1)?.status).toBe(201);
    expect(guides).toMatchObject({
      object: 'site-section',
      title: 'Guides 1',
      path: 'guides-1',
      default: true,
    });
    expect(variantsOf(guides)).toEqual([['Guides 1', true]]);
    expect(api).toMatchObject({ title: 'API', path: 'api', default: false });
    expect(api.siteSpaces[0]?.section).toBe(api.id);
    expect((await admin.sites.get(orgId, site.id)).siteSpaces).toBe(2);
  });

  it('turns the top-level site spaces of a site into its first, default section when a section is added', async () => {
    const home = await world.newSpace('Home');
    const blog = await world.newSpace('Blog');
    const site = await admin.sites.create(orgId, { title: 'Grown', spaces: [home, blog] });
    const added = await sections.create(orgId, site.id, { spaceId: await world.newSpace('Changelog') });
    const listed = (await sections.list(orgId, site.id)).items;
    expect(listed.map((section) => [section.title, section.default])).toEqual([
      ['Home', true],
      ['Changelog', false],
    ]);
    expect(variantsOf(listed[0])).toEqual([
      ['Home', true],
      ['Blog', false],
    ]);
    expect(added.default).toBe(false);
  });

  it('adds a site space to the section named, else to the default section, and refuses twice the same', async () => {
    const { site, guides, api } = await siteWithSections('Variants');
    const v2 = await siteSpaces.add(orgId, site.id, { spaceId: await world.newSpace('Guides 2') });
    expect(v2).toMatchObject({ section: guides.id, path: 'guides-2', default: false });
    const apiV2 = await siteSpaces.add(orgId, site.id, {
      spaceId: await world.newSpace('API 2'),
      sectionId: api.id,
    });
    expect(apiV2.section).toBe(api.id);
    await expectApiStatus(siteSpaces.add(orgId, site.id, { spaceId: v2.space.id }), 409);
    await expectApiStatus(
      siteSpaces.add(orgId, site.id, { spaceId: v2.space.id, sectionId: 'sitesc_none' }),
      404,
    );
    const unknownSpace = await expectApiStatus(siteSpaces.add(orgId, site.id, { spaceId: 'spc_none' }), 404);
    expect(unknownSpace.message).toMatch(/space spc_none/);
    const all = await collect(siteSpaces.listAll(orgId, site.id));
    expect(all.map((item) => item.space.title)).toEqual(['Guides 1', 'Guides 2', 'API 1', 'API 2']);
  });

  it('sets the default variant of a section and the default section of the site', async () => {
    const { site, guides, api } = await siteWithSections('Defaults');
    const v2 = await siteSpaces.add(orgId, site.id, { spaceId: await world.newSpace('Guides 2') });
    const patched = await sections.update(orgId, site.id, guides.id, { defaultSiteSpace: v2.id });
    expect(variantsOf(patched)).toEqual([
      ['Guides 1', false],
      ['Guides 2', true],
    ]);
    // A variant of another section cannot be this one's default.
    await expectApiStatus(sections.update(orgId, site.id, api.id, { defaultSiteSpace: v2.id }), 400);
    // The site's default site space is the default section's: elsewhere is a 400, and a 404 when unknown.
    await expectApiStatus(
      admin.sites.update(orgId, site.id, { defaultSiteSpace: api.siteSpaces[0]?.id ?? '' }),
      400,
    );
    await expectApiStatus(admin.sites.update(orgId, site.id, { defaultSiteSpace: 'sitesp_none' }), 404);
    await expectApiStatus(admin.sites.update(orgId, site.id, { defaultSiteSection: 'sitesc_none' }), 404);
    await admin.sites.update(orgId, site.id, {
      defaultSiteSection: api.id,
      defaultSiteSpace: api.siteSpaces[0]?.id ?? '',
    });
    const listed = (await sections.list(orgId, site.id)).items;
    expect(listed.map((section) => [section.title, section.default])).toEqual([
      ['Guides 1', false],
      ['API', true],
    ]);
    const defaults = await siteSpaces.list(orgId, site.id, { default: true });
    expect(defaults.items.map((item) => item.space.title)).toEqual(['Guides 2', 'API 1']);
  });

  it('moves sections before and after siblings and to the end; refuses siblings that are not neighbours', async () => {
    const { site, guides, api } = await siteWithSections('Ordered');
    const faq = await sections.create(orgId, site.id, { spaceId: await world.newSpace('FAQ') });
    expect(await titlesOf(site.id)).toEqual(['Guides 1', 'API', 'FAQ']);
    await sections.move(orgId, site.id, faq.id, { before: guides.id });
    expect(await titlesOf(site.id)).toEqual(['FAQ', 'Guides 1', 'API']);
    await sections.move(orgId, site.id, faq.id, { after: guides.id, before: api.id });
    expect(await titlesOf(site.id)).toEqual(['Guides 1', 'FAQ', 'API']);
    await sections.move(orgId, site.id, guides.id);
    expect(await titlesOf(site.id)).toEqual(['FAQ', 'API', 'Guides 1']);
    await expectApiStatus(sections.move(orgId, site.id, guides.id, { after: api.id, before: faq.id }), 400);
    await expectApiStatus(sections.move(orgId, site.id, guides.id, { before: guides.id }), 400);
    await expectApiStatus(sections.move(orgId, site.id, guides.id, { before: 'sitesc_none' }), 404);
    expect(await titlesOf(site.id)).toEqual(['FAQ', 'API', 'Guides 1']);
    // The default section stays the default wherever it moves.
    expect((await sections.list(orgId, site.id)).items.find((section) => section.default)?.id).toBe(
      guides.id,
    );
  });

  it('moves site spaces among the variants of a section and into another section', async () => {
    const { site, guides, api } = await siteWithSections('Moving variants');
    const v2 = await siteSpaces.add(orgId, site.id, { spaceId: await world.newSpace('Guides 2') });
    const first = guides.siteSpaces[0]?.id ?? '';
    const moved = await siteSpaces.move(orgId, site.id, v2.id, { before: first });
    expect(moved.section).toBe(guides.id);
    const order = async () => (await siteSpaces.list(orgId, site.id)).items.map((item) => item.space.title);
    expect(await order()).toEqual(['Guides 2', 'Guides 1', 'API 1']);
    const across = await siteSpaces.move(orgId, site.id, v2.id, { after: api.siteSpaces[0]?.id ?? '' });
    expect(across.section).toBe(api.id);
    expect(await order()).toEqual(['Guides 1', 'API 1', 'Guides 2']);
    // The last variant of a section cannot leave it.
    await expectApiStatus(siteSpaces.move(orgId, site.id, first, { before: v2.id }), 400);
    await expectApiStatus(siteSpaces.move(orgId, site.id, first, { before: 'sitesp_none' }), 404);
  });

  it('patches site spaces: path unique in its section (409), condition set and removed, the space shown', async () => {
    const { site, guides } = await siteWithSections('Patched variants');
    const v2 = await siteSpaces.add(orgId, site.id, { spaceId: await world.newSpace('Guides 2') });
    const patched = await siteSpaces.update(orgId, site.id, v2.id, {
      path: 'v2',
      condition: 'visitor.claims.beta',
    });
    expect(patched).toMatchObject({ path: 'v2', condition: 'visitor.claims.beta' });
    await expectApiStatus(siteSpaces.update(orgId, site.id, v2.id, { path: 'guides-1' }), 409);
    const cleared = await siteSpaces.update(orgId, site.id, v2.id, { condition: null });
    expect(cleared.condition).toBeUndefined();
    expect(cleared.path).toBe('v2');
    const replacement = await world.newSpace('Guides 2 bis');
    expect((await siteSpaces.update(orgId, site.id, v2.id, { spaceId: replacement })).space.id).toBe(
      replacement,
    );
    await expectApiStatus(
      siteSpaces.update(orgId, site.id, v2.id, { spaceId: guides.siteSpaces[0]?.space.id ?? '' }),
      409,
    );
    await expectApiStatus(siteSpaces.update(orgId, site.id, 'sitesp_none', { path: 'x' }), 404);
  });

  it('patches sections: path unique in the site (409); null removes condition, icon and description', async () => {
    const { site, guides } = await siteWithSections('Patched sections');
    const patched = await sections.update(orgId, site.id, guides.id, {
      title: 'Guides',
      path: 'guides',
      condition: 'visitor.claims.beta',
      icon: 'book',
      description: 'How to',
    });
    expect(patched).toMatchObject({
      title: 'Guides',
      path: 'guides',
      condition: 'visitor.claims.beta',
      icon: 'book',
    });
    await expectApiStatus(sections.update(orgId, site.id, guides.id, { path: 'api' }), 409);
    const cleared = await sections.update(orgId, site.id, guides.id, {
      condition: null,
      icon: null,
      description: null,
    });
    expect([cleared.condition, cleared.icon, cleared.description, cleared.title]).toEqual([
      undefined,
      undefined,
      undefined,
      'Guides',
    ]);
  });

  it('groups sections: created with sections, adds and removes one, moves, and on deletion leaves them in place', async () => {
    const { site, guides, api } = await siteWithSections('Grouped');
    const faq = await sections.create(orgId, site.id, { spaceId: await world.newSpace('FAQ') });
    const reference = await groups.create(orgId, site.id, {
      title: 'Reference',
      icon: 'code',
      sections: [api.id],
    });
    expect(world.proxy.answers.at(-1)?.status).toBe(201);
    expect(reference.children.map((child) => child.id)).toEqual([api.id]);
    expect(reference.sections.map((section) => section.sectionGroup)).toEqual([reference.id]);

    const added = await groups.addSection(orgId, site.id, reference.id, faq.id);
    expect(added.children.map((child) => child.id)).toEqual([api.id, faq.id]);
    expect(world.proxy.answers.at(-1)?.status).toBe(201);
    await groups.removeSection(orgId, site.id, reference.id, faq.id);
    expect(world.proxy.answers.at(-1)?.status).toBe(205);
    await groups.removeSection(orgId, site.id, reference.id, faq.id);
    expect(world.proxy.answers.at(-1)?.status).toBe(204);

    // Site order: Guides 1, the group (API), then FAQ right after the group it left.
    expect(await titlesOf(site.id)).toEqual(['Guides 1', 'API', 'FAQ']);
    const moved = await groups.move(orgId, site.id, reference.id, {
      before: { type: 'site-section', id: guides.id },
    });
    expect(moved.children.map((child) => child.id)).toEqual([api.id]);
    expect(await titlesOf(site.id)).toEqual(['API', 'Guides 1', 'FAQ']);
    await expectApiStatus(
      groups.move(orgId, site.id, reference.id, { after: { type: 'site-section', id: api.id } }),
      400,
    );
    const renamed = await groups.update(orgId, site.id, reference.id, { title: 'API reference', icon: null });
    expect([renamed.title, renamed.icon]).toEqual(['API reference', undefined]);
    expect((await groups.list(orgId, site.id)).items.map((group) => group.title)).toEqual(['API reference']);

    const published = await reader.sites.getPublished(orgId, site.id);
    expect(published.structure.structure.map((item) => item.object)).toEqual([
      'site-section-group',
      'site-section',
      'site-section',
    ]);

    await groups.delete(orgId, site.id, reference.id);
    expect(world.proxy.answers.at(-1)?.status).toBe(205);
    await groups.delete(orgId, site.id, reference.id);
    expect(world.proxy.answers.at(-1)?.status).toBe(204);
    const after = (await sections.list(orgId, site.id)).items;
    expect(after.map((section) => [section.title, section.sectionGroup])).toEqual([
      ['API', undefined],
      ['Guides 1', undefined],
      ['FAQ', undefined],
    ]);
    await expectApiStatus(groups.addSection(orgId, site.id, reference.id, faq.id), 404);
  });

  it('nests a group in a group, and moves a section into a group by placing it next to a section there', async () => {
    const { site, guides, api } = await siteWithSections('Nested');
    const outer = await groups.create(orgId, site.id, { title: 'Outer', sections: [api.id] });
    const inner = await groups.create(orgId, site.id, { title: 'Inner', parent: outer.id });
    expect(inner.sectionGroup).toBe(outer.id);
    const moved = await sections.move(orgId, site.id, guides.id, { before: api.id });
    expect(moved.sectionGroup).toBe(outer.id);
    const listed = (await groups.list(orgId, site.id)).items;
    expect(listed.map((group) => [group.title, group.children.map((child) => child.id)])).toEqual([
      ['Outer', [guides.id, api.id, inner.id]],
      ['Inner', []],
    ]);
    await expectApiStatus(groups.create(orgId, site.id, { title: 'Lost', parent: 'sitesg_none' }), 404);
  });

  it('deletes site spaces and sections: a section keeps its last variant; deleting a section takes its variants', async () => {
    const { site, guides, api } = await siteWithSections('Deleting');
    const v2 = await siteSpaces.add(orgId, site.id, { spaceId: await world.newSpace('Guides 2') });
    await siteSpaces.delete(orgId, site.id, guides.siteSpaces[0]?.id ?? '');
    expect(world.proxy.answers.at(-1)?.status).toBe(205);
    // Its default variant gone, the next one is the default.
    expect(variantsOf((await sections.list(orgId, site.id)).items[0])).toEqual([['Guides 2', true]]);
    const last = await expectApiStatus(siteSpaces.delete(orgId, site.id, v2.id), 400);
    expect(last.message).toMatch(/last site space/);
    await siteSpaces.delete(orgId, site.id, 'sitesp_none');
    expect(world.proxy.answers.at(-1)?.status).toBe(204);

    await sections.delete(orgId, site.id, guides.id);
    expect(world.proxy.answers.at(-1)?.status).toBe(205);
    await sections.delete(orgId, site.id, guides.id);
    expect(world.proxy.answers.at(-1)?.status).toBe(204);
    const left = (await sections.list(orgId, site.id)).items;
    expect(left.map((section) => [section.id, section.default])).toEqual([[api.id, true]]);
    expect((await admin.sites.get(orgId, site.id)).siteSpaces).toBe(1);
  });

  it('refuses values beyond the limits with a 400 naming the field', async () => {
    const { site, guides } = await siteWithSections('Limits');
    const spaceId = await world.newSpace('Limited');
    const v = guides.siteSpaces[0]?.id ?? '';
    const refusals: Array<[() => Promise<unknown>, RegExp]> = [
      [() => sections.create(orgId, site.id, { spaceId, title: 'T'.repeat(65) }), /title/],
      [() => sections.create(orgId, site.id, { spaceId, title: 'T' }), /title/],
      [() => sections.create(orgId, site.id, { spaceId, icon: 'i'.repeat(51) }), /icon/],
      [() => sections.update(orgId, site.id, guides.id, { title: 'T'.repeat(129) }), /title/],
      [() => sections.update(orgId, site.id, guides.id, { path: '' }), /path/],
      [() => sections.update(orgId, site.id, guides.id, { path: 'p'.repeat(101) }), /path/],
      [() => sections.update(orgId, site.id, guides.id, { condition: '' }), /condition/],
      [() => sections.update(orgId, site.id, guides.id, { condition: 'c'.repeat(1025) }), /condition/],
      [() => sections.update(orgId, site.id, guides.id, { description: 'd'.repeat(257) }), /description/],
      [() => groups.create(orgId, site.id, { title: '' }), /title/],
      [() => groups.create(orgId, site.id, { title: 'g'.repeat(101) }), /title/],
      [() => groups.create(orgId, site.id, { title: 'Group', icon: 'i'.repeat(51) }), /icon/],
      [() => siteSpaces.update(orgId, site.id, v, { path: 'p'.repeat(101) }), /path/],
      [() => siteSpaces.update(orgId, site.id, v, { condition: 'c'.repeat(1025) }), /condition/],
      [() => sections.list(orgId, site.id, { limit: 1001 }), /limit/],
      [() => groups.list(orgId, site.id, { limit: 0 }), /limit/],
      [() => siteSpaces.list(orgId, site.id, { limit: 1001 }), /limit/],
    ];
    for (const [call, field] of refusals) expect((await expectApiStatus(call(), 400)).message).toMatch(field);
    // Exactly at the limits is fine.
    const atLimits = await sections.update(orgId, site.id, guides.id, {
      title: 'T'.repeat(128),
      path: 'p'.repeat(100),
      condition: 'c'.repeat(1024),
      description: 'd'.repeat(256),
    });
    expect(atLimits.path).toBe('p'.repeat(100));
    expect((await sections.list(orgId, site.id)).items).toHaveLength(2);
    expect((await groups.list(orgId, site.id)).items).toHaveLength(0);
  });

  it('lets readers list the structure and needs the create role to change it; unknown ids are 404s', async () => {
    const { site, guides, api } = await siteWithSections('Roles');
    const spaceId = await world.newSpace('Outsider');
    expect((await reader.sites.sections.list(orgId, site.id)).items).toHaveLength(2);
    expect((await reader.sites.siteSpaces.list(orgId, site.id)).items).toHaveLength(2);
    expect((await reader.sites.sectionGroups.list(orgId, site.id)).items).toHaveLength(0);
    for (const refused of [
      () => reviewer.sites.sections.create(orgId, site.id, { spaceId }),
      () => reviewer.sites.sections.update(orgId, site.id, guides.id, { title: 'Mine' }),
      () => reviewer.sites.sections.move(orgId, site.id, guides.id, { after: api.id }),
      () => reviewer.sites.sections.delete(orgId, site.id, guides.id),
      () => reviewer.sites.sectionGroups.create(orgId, site.id, { title: 'Mine' }),
      () => reviewer.sites.siteSpaces.add(orgId, site.id, { spaceId }),
      () => reviewer.sites.siteSpaces.delete(orgId, site.id, guides.siteSpaces[0]?.id ?? ''),
      () => reader.sites.siteSpaces.move(orgId, site.id, guides.siteSpaces[0]?.id ?? ''),
    ]) {
      await expectApiStatus(refused(), 403);
    }
    expect(await titlesOf(site.id)).toEqual(['Guides 1', 'API']);
    for (const unknown of [
      () => sections.list(orgId, 'site_none'),
      () => sections.update(orgId, site.id, 'sitesc_none', { title: 'Nope' }),
      () => sections.move(orgId, site.id, 'sitesc_none'),
      () => groups.update(orgId, site.id, 'sitesg_none', { title: 'Nope' }),
      () => groups.move(orgId, site.id, 'sitesg_none'),
      () => groups.removeSection(orgId, site.id, 'sitesg_none', guides.id),
      () => siteSpaces.move(orgId, site.id, 'sitesp_none'),
      () => sections.create(orgId, site.id, { spaceId: 'spc_none' }),
    ]) {
      await expectApiStatus(unknown(), 404);
    }
  });
});
