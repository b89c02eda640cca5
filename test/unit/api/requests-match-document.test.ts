// Every request body docsync's client sends is one the real service accepts: each client method
// that sends a body is called against the local service, which records the bodies it receives,
// and each body is validated with the request schema of the service's public document. A change
// request is merged by `merge()`, never by a PATCH to `status: merged`.
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import type { DocsApiClient } from '../../../src/api/docs-api-client.js';
import { createEmulator, userIdOf } from '../../../src/emulator/create-emulator.js';
import { closeAfter } from '../../support/close-after.js';
import { docsZip, SAMPLE_DOCS } from '../../support/docs-archives.js';
import { startFileServer } from '../../support/file-server.js';
import { checkRequest, documentOperation } from '../../support/service-document.js';
import { TEST_MEMBERS, type TestEmulator } from '../../support/start-test-emulator.js';
import { testApiClient } from '../../support/test-api-client.js';
import { addTestOrganization } from '../../support/test-organization.js';

interface Received {
  method: string;
  /** The route, such as `/v1/spaces/:s/change-requests/:cr`. */
  route: string;
  body: unknown;
}

/** The local service, recording each request's parsed body before its handler runs. */
async function recordingEmulator(): Promise<{ test: TestEmulator; received: Received[] }> {
  const received: Received[] = [];
  const emulator = await createEmulator({ members: TEST_MEMBERS, log: pino({ level: 'silent' }) });
  emulator.app.addHook('preHandler', async (request) => {
    const route = request.routeOptions.url ?? request.url;
    if (route.startsWith('/v1/')) received.push({ method: request.method, route, body: request.body });
  });
  closeAfter(() => emulator.close());
  const origin = await emulator.listen('127.0.0.1', 0);
  const tokens = {
    admin: 'admin-token',
    reviewer: 'reviewer-token',
    commenter: 'commenter-token',
    reader: 'reader-token',
  };
  return { test: { origin, baseUrl: `${origin}/v1`, orgId: emulator.orgId, emulator, tokens }, received };
}

const { test, received } = await recordingEmulator();
const files = await startFileServer();
const admin = testApiClient(test).client;
const reviewer = testApiClient(test, test.tokens.reviewer).client;
const docsUrl = files.put('/docs.zip', await docsZip(SAMPLE_DOCS));
const specUrl = files.put('/spec.yaml', 'openapi: 3.1.0\ninfo: {title: Pets, version: "1"}\npaths: {}\n');

/** What the cases share: a space with content, and change requests in it. */
interface World {
  space: string;
  page: string;
  cr: string;
  /** A second change request, to archive. */
  other: string;
}

let world: World | undefined;
async function worldOf(client: DocsApiClient): Promise<World> {
  if (world !== undefined) return world;
  const space = (await client.spaces.create(test.orgId, { title: 'Requests' })).id;
  await client.content.importContent({ spaceId: space }, { url: docsUrl, source: 'zip' });
  const page = (await client.content.getPages({ spaceId: space })).pages[0]?.id ?? '';
  const cr = (await client.changeRequests.create(space, { subject: 'docs: sync' })).id;
  const other = (await client.changeRequests.create(space)).id;
  world = { space, page, cr, other };
  return world;
}

// Each client method that sends a body (or, for merge and update, none), with the arguments
// docsync's callers give it (src/import, src/links, src/upkeep, src/openapi, src/demo).
const CASES: Record<string, (w: World) => Promise<unknown>> = {
  'spaces.create': () => admin.spaces.create(test.orgId, { title: 'Another space' }),
  'spaces.update': async () => {
    const { id } = await admin.spaces.create(test.orgId, { title: 'Renamed space' });
    await admin.spaces.update(id, { title: 'Handbook 2.0' });
  },
  'spaces.move': async () => {
    const { id } = await admin.spaces.create(test.orgId, { title: 'Moved space' });
    const collection = await admin.collections.create(test.orgId, { title: 'Versions' });
    await admin.spaces.move(id, collection.id);
    await admin.spaces.move(id, null);
  },
  'content.importContent': async (w) => {
    await admin.content.importContent({ spaceId: w.space }, { url: docsUrl, source: 'zip' });
    await admin.content.importContent(
      { spaceId: w.space, changeRequestId: w.cr },
      { url: docsUrl, source: 'zip' },
    );
  },
  'changeRequests.create': async (w) => {
    await admin.changeRequests.create(w.space, { subject: 'docs: update from main (a1b2c3d) [docsync:x]' });
    await admin.changeRequests.create(w.space);
  },
  'changeRequests.patch': async (w) => {
    await admin.changeRequests.patch(w.space, w.cr, { subject: 'docs: renamed' });
    for (const status of ['draft', 'open'] as const)
      await admin.changeRequests.patch(w.space, w.cr, { status });
    await admin.changeRequests.patch(w.space, w.other, { status: 'archived' });
  },
  'changeRequests.submitReview': async (w) => {
    await reviewer.changeRequests.submitReview(w.space, w.cr, { status: 'changes-requested' });
    await reviewer.changeRequests.submitReview(w.space, w.cr, {
      status: 'approved',
      comment: { markdown: 'Looks good to me.' },
    });
  },
  'comments.create': async (w) => {
    await admin.comments.create({ spaceId: w.space }, { body: { markdown: 'On the space' }, page: w.page });
    await admin.comments.create(
      { spaceId: w.space, changeRequestId: w.cr },
      { body: { markdown: 'On the CR' } },
    );
  },
  'comments.update': async (w) => {
    const thread = { spaceId: w.space, changeRequestId: w.cr };
    const { id } = await admin.comments.create(thread, {
      body: { markdown: '<!-- docsync:broken-links -->\nx' },
    });
    await admin.comments.update(thread, id, { body: { markdown: '<!-- docsync:broken-links -->\ny' } });
    await admin.comments.update(thread, id, { body: { markdown: 'z' }, resolved: true });
    await admin.comments.update(thread, id, { resolved: false });
    await admin.comments.update(thread, id, { addedReactions: ['👍'] });
    await admin.comments.update(thread, id, { removedReactions: ['👍'] });
  },
  'changeRequests.update': (w) => admin.changeRequests.update(w.space, w.cr),
  'changeRequests.merge': (w) => admin.changeRequests.merge(w.space, w.cr),
  'openapi.put': async () => {
    await admin.openapi.put(test.orgId, 'pets', {
      text: 'openapi: 3.1.0\ninfo: {title: Pets, version: "1"}\npaths: {}\n',
    });
    await admin.openapi.put(test.orgId, 'pets-by-url', { url: specUrl });
  },
};

// The groups for collections, teams and custom fields (their answers are checked in
// org-groups-accept-document.test.ts): what they send. Custom fields are not in the document.
const REVIEWER = userIdOf('Rita Reviewer');
const COMMENTER = userIdOf('Carl Commenter');
Object.assign(CASES, {
  'collections.create': async () => {
    const top = await admin.collections.create(test.orgId, { title: 'Guides' });
    await admin.collections.create(test.orgId, { title: 'Nested', parent: top.id });
    await admin.collections.create(test.orgId);
  },
  'collections.update': async () => {
    const { id } = await admin.collections.create(test.orgId, { title: 'To edit' });
    await admin.collections.update(id, { title: 'Edited', description: 'About it' });
    for (const defaultLevel of ['inherit', 'read', null] as const)
      await admin.collections.update(id, { defaultLevel });
  },
  'collections.move': async (w: World) => {
    const parent = await admin.collections.create(test.orgId, { title: 'Parent' });
    const { id } = await admin.collections.create(test.orgId, { title: 'Moved' });
    await admin.collections.move(id, { parent: parent.id });
    await admin.collections.move(id, {
      parent: null,
      position: { before: { type: 'space', space: w.space } },
    });
    await admin.collections.move(id, { position: { after: { type: 'collection', collection: parent.id } } });
  },
  'collections.transfer': async () => {
    const other = addTestOrganization(test, 'Elsewhere', [{ name: 'Admin', role: 'admin' }]);
    const { id } = await admin.collections.create(test.orgId, { title: 'Leaving' });
    await admin.collections.transfer(id, other);
  },
  'teams.create': async () => {
    await admin.teams.create(test.orgId, { title: 'Writers' });
    await admin.teams.create(test.orgId, { title: 'Reviewers', members: [REVIEWER] });
  },
  'teams.rename': async () => {
    const { id } = await admin.teams.create(test.orgId, { title: 'Old name' });
    await admin.teams.rename(test.orgId, id, 'New name');
  },
  'teams.updateMembers': async () => {
    const { id } = await admin.teams.create(test.orgId, { title: 'Updated' });
    await admin.teams.updateMembers(test.orgId, id, { add: [REVIEWER, COMMENTER] });
    await admin.teams.updateMembers(test.orgId, id, {
      remove: [COMMENTER],
      memberships: { [REVIEWER]: { role: 'owner' } },
    });
  },
  'teams.setMember': async () => {
    const { id } = await admin.teams.create(test.orgId, { title: 'Set' });
    await admin.teams.setMember(test.orgId, id, REVIEWER);
    await admin.teams.setMember(test.orgId, id, REVIEWER, { role: 'owner' });
  },
  'customFields.create': async () => {
    await admin.customFields.create(test.orgId, { name: 'tier', type: 'text', title: 'Tier' });
    await admin.customFields.create(test.orgId, { name: 'level', type: 'select', options: ['a', 'b'] });
  },
  'customFields.update': () => admin.customFields.update(test.orgId, 'tier', { description: 'The plan' }),
  'customFields.setValues': (w: World) => admin.customFields.setValues(w.space, { tier: 'pro', level: null }),
});

// Sites, their sections, section groups and site spaces (answers: sites-group-accepts-document).
Object.assign(CASES, {
  'sites.create': async (w: World) => {
    await admin.sites.create(test.orgId);
    await admin.sites.create(test.orgId, {
      type: 'premium',
      title: 'Docs',
      visibility: 'public',
      spaces: [w.space],
    });
  },
  'sites.update': async () => {
    const { id } = await admin.sites.create(test.orgId, { title: 'To edit' });
    await admin.sites.update(test.orgId, id, {
      title: 'Edited',
      basename: 'edited',
      adaptiveContent: { enabled: true },
    });
    await admin.sites.update(test.orgId, id, { proxy: null });
  },
  'sites.publish': async () => {
    const { id } = await admin.sites.create(test.orgId, { title: 'Published' });
    await admin.sites.publish(test.orgId, id);
    await admin.sites.unpublish(test.orgId, id);
  },
  'sites.putAdaptiveSchema': async () => {
    const { id } = await admin.sites.create(test.orgId, { title: 'Adaptive' });
    const jsonSchema = { type: 'object', properties: {}, additionalProperties: false };
    await admin.sites.putAdaptiveSchema(test.orgId, id, jsonSchema);
  },
  'sites.sections.create': async (w: World) => {
    const { id } = await admin.sites.create(test.orgId, { type: 'premium', title: 'Sectioned' });
    await admin.sites.sections.create(test.orgId, id, { spaceId: w.space, title: 'Guides', icon: 'book' });
  },
  'sites.sections.update': async (w: World) => {
    const site = await sectionedSite(w);
    await admin.sites.sections.update(test.orgId, site.id, site.first, { title: 'Renamed', condition: null });
  },
  'sites.sections.move': async (w: World) => {
    const site = await sectionedSite(w);
    await admin.sites.sections.move(test.orgId, site.id, site.first, { after: site.second });
    await admin.sites.sections.move(test.orgId, site.id, site.first);
  },
  'sites.sectionGroups.create': async (w: World) => {
    const site = await sectionedSite(w);
    await admin.sites.sectionGroups.create(test.orgId, site.id, {
      title: 'Reference',
      sections: [site.first],
    });
  },
  'sites.sectionGroups.update': async (w: World) => {
    const site = await sectionedSite(w);
    const group = await admin.sites.sectionGroups.create(test.orgId, site.id, { title: 'Group' });
    await admin.sites.sectionGroups.update(test.orgId, site.id, group.id, { title: 'Regrouped', icon: null });
  },
  'sites.sectionGroups.addSection': async (w: World) => {
    const site = await sectionedSite(w);
    const group = await admin.sites.sectionGroups.create(test.orgId, site.id, { title: 'Adds' });
    await admin.sites.sectionGroups.addSection(test.orgId, site.id, group.id, site.second);
  },
  'sites.sectionGroups.move': async (w: World) => {
    const site = await sectionedSite(w);
    const group = await admin.sites.sectionGroups.create(test.orgId, site.id, { title: 'Moves' });
    await admin.sites.sectionGroups.move(test.orgId, site.id, group.id, {
      before: { type: 'site-section', id: site.first },
    });
  },
  'sites.siteSpaces.add': async (w: World) => {
    const { id } = await admin.sites.create(test.orgId, { title: 'With spaces' });
    await admin.sites.siteSpaces.add(test.orgId, id, { spaceId: w.space });
  },
  'sites.siteSpaces.update': async (w: World) => {
    const { id } = await admin.sites.create(test.orgId, { title: 'Variant paths' });
    const siteSpace = await admin.sites.siteSpaces.add(test.orgId, id, { spaceId: w.space });
    await admin.sites.siteSpaces.update(test.orgId, id, siteSpace.id, { path: 'v2', condition: null });
  },
  'sites.siteSpaces.move': async (w: World) => {
    const { id } = await admin.sites.create(test.orgId, { title: 'Variant order' });
    const first = await admin.sites.siteSpaces.add(test.orgId, id, { spaceId: w.space });
    const other = (await admin.spaces.create(test.orgId, { title: 'Other variant' })).id;
    const second = await admin.sites.siteSpaces.add(test.orgId, id, { spaceId: other });
    await admin.sites.siteSpaces.move(test.orgId, id, second.id, { before: first.id });
  },
});

/** A premium site with two sections. */
async function sectionedSite(w: World): Promise<{ id: string; first: string; second: string }> {
  const { id } = await admin.sites.create(test.orgId, { type: 'premium', title: 'Two sections' });
  const other = (await admin.spaces.create(test.orgId, { title: 'Second section' })).id;
  const first = await admin.sites.sections.create(test.orgId, id, { spaceId: w.space });
  const second = await admin.sites.sections.create(test.orgId, id, { spaceId: other });
  return { id, first: first.id, second: second.id };
}

/** Methods that send no body: reads and deletes. */
const READS = new Set([
  'orgs.list',
  'spaces.get',
  'spaces.delete',
  'spaces.listLinks',
  'content.getRevision',
  'content.getPages',
  'content.getPage',
  'content.download',
  'content.listPageLinks',
  'content.listPageLinksAll',
  'changeRequests.list',
  'changeRequests.listAll',
  'changeRequests.get',
  'changeRequests.listLinks',
  'changeRequests.listReviews',
  'changeRequests.listReviewsAll',
  'comments.list',
  'comments.listAll',
  'openapi.get',
  'openapi.getVersion',
  'openapi.getVersionContent',
  'collections.list',
  'collections.listAll',
  'collections.get',
  'collections.delete',
  'collections.listSpaces',
  'collections.listSpacesAll',
  'teams.list',
  'teams.listAll',
  'teams.get',
  'teams.delete',
  'teams.listMembers',
  'teams.listMembersAll',
  'teams.removeMember',
  'teams.listOfMember',
  'teams.listOfMemberAll',
  'customFields.list',
  'customFields.listAll',
  'customFields.get',
  'customFields.delete',
  'customFields.valuesOf',
  'sites.list',
  'sites.listAll',
  'sites.get',
  'sites.delete',
  'sites.unpublish',
  'sites.getAdaptiveSchema',
  'sites.getPublished',
  'sites.sections.list',
  'sites.sections.listAll',
  'sites.sections.delete',
  'sites.sectionGroups.list',
  'sites.sectionGroups.listAll',
  'sites.sectionGroups.delete',
  'sites.sectionGroups.removeSection',
  'sites.siteSpaces.list',
  'sites.siteSpaces.listAll',
  'sites.siteSpaces.delete',
]);

/** `group.method` of every method of the client, sub-groups (`sites.sections`) included. */
function clientMethods(prefix: string, api: object): string[] {
  const own = Object.getOwnPropertyNames(Object.getPrototypeOf(api))
    .filter((name) => name !== 'constructor')
    .map((name) => `${prefix}.${name}`);
  const groups = Object.entries(api).filter(
    ([name, value]) =>
      name !== 'transport' && typeof value === 'object' && /Api$/.test(value?.constructor.name),
  );
  return [...own, ...groups.flatMap(([name, value]) => clientMethods(`${prefix}.${name}`, value as object))];
}

const figures = { bodies: 0, validated: 0, refused: 0, unknown: [] as string[] };

afterAll(() => {
  process.stdout.write(
    `requests-match-document: ${figures.bodies} request bodies validated against the document, ` +
      `${figures.validated} valid, ${figures.refused} refused; ${figures.unknown.length} sent to ` +
      'operations the document does not list' +
      `${figures.unknown.length === 0 ? '' : ` (${[...new Set(figures.unknown)].join(', ')})`}\n`,
  );
});

describe('the bodies docsync sends, against the public document', () => {
  it('has a case for every method of the client that writes', () => {
    const groups = Object.entries(admin).filter(([name]) => name !== 'transport');
    const methods = groups.flatMap(([group, api]) => clientMethods(group, api as object));
    expect(methods.filter((name) => !(name in CASES) && !READS.has(name))).toEqual([]);
  });

  it.each(Object.keys(CASES))('%s sends bodies the document accepts', async (name) => {
    const w = await worldOf(admin);
    const before = received.length;
    await CASES[name]?.(w);
    const sent = received.slice(before);
    expect(sent.length).toBeGreaterThan(0);
    for (const request of sent) {
      const operation = documentOperation(request.method, request.route);
      const where = `${request.method} ${request.route}`;
      if (operation === undefined) {
        // Only custom fields are missing from the document (its version lists every other
        // endpoint of the interface): noted, not checked.
        expect(request.route, where).toMatch(/\/custom-fields/);
        figures.unknown.push(where);
        continue;
      }
      if (request.body === undefined) {
        // No body: the document must not require one.
        const requestBody = operation.requestBody as { required?: boolean } | undefined;
        expect(requestBody?.required ?? false, where).toBe(false);
        continue;
      }
      figures.bodies += 1;
      const check = checkRequest(request.method, request.route, request.body);
      expect(check.known, `${where}: the document has no schema for its body`).toBe(true);
      if (check.valid) figures.validated += 1;
      else figures.refused += 1;
      expect(check.errors, `${request.method} ${request.route} ${JSON.stringify(request.body)}`).toEqual([]);
    }
  });

  it('never PATCHes a change request to merged: merging is its own operation', () => {
    const patches = received.filter(
      (request) => request.method === 'PATCH' && request.route.includes('change-requests'),
    );
    expect(patches.length).toBeGreaterThan(0);
    expect(patches.filter((request) => (request.body as { status?: string }).status === 'merged')).toEqual(
      [],
    );
    expect(received.some((request) => request.method === 'POST' && request.route.endsWith('/merge'))).toBe(
      true,
    );
  });
});
