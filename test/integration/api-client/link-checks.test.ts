// docsync's client reading the emulator's link checks over HTTP: broken, ok and in-app links of the
// main content and of a change request (which counts only the links it broke), page by page, and a
// change request's in one list (`brokenContext: change-request` lists only the links it broke).
import { describe, expect, it } from 'vitest';
import type { ContentLocation } from '../../../src/api/schemas/content-location-schema.js';
import type { LinkCheckItem } from '../../../src/api/schemas/link-check-list-schema.js';
import { expectApiStatus } from '../../support/api-error-of.js';
import { type DocsFolder, docsZip } from '../../support/docs-archives.js';
import { startFileServer } from '../../support/file-server.js';
import { checkResponse } from '../../support/service-document.js';
import { callApi, startTestEmulator } from '../../support/start-test-emulator.js';
import { testApiClient } from '../../support/test-api-client.js';

describe('link checks through the client', async () => {
  const test = await startTestEmulator();
  const files = await startFileServer();
  const { client } = testApiClient(test);
  const reader = testApiClient(test, test.tokens.reader).client;
  const appLink = `${test.origin}/app/s/spc_elsewhere`;
  const folder: DocsFolder = {
    'README.md': `# Home\n\nSee [the guide](guide.md), [the old page](missing.md), [the app](${appLink}) and [elsewhere](https://example.com/docs).\n`,
    'guide.md': '# Guide\n\nThe quokka lives on Rottnest Island.\n',
  };
  let served = 0;
  async function importInto(spaceId: string, changeRequestId: string | undefined, docs: DocsFolder) {
    served += 1;
    const url = files.put(`/links-${served}.zip`, await docsZip(docs));
    return client.content.importContent({ spaceId, changeRequestId }, { url, source: 'zip' });
  }
  async function spaceWithLinks(title: string) {
    const space = await client.spaces.create(test.orgId, { title });
    await importInto(space.id, undefined, folder);
    const { pages } = await client.content.getPages({ spaceId: space.id });
    const idOf = (pageTitle: string) => pages.find((page) => page.title === pageTitle)?.id ?? '';
    return { space, home: idOf('Home'), guide: idOf('Guide') };
  }
  // A page or file location is a whole record; compared here by kind and id.
  const short = (location: ContentLocation | undefined) =>
    location?.kind === 'url'
      ? { kind: 'url', url: location.url }
      : { kind: location?.kind, id: location?.page?.id ?? location?.file?.id };
  const targets = (items: readonly LinkCheckItem[]) => items.map((item) => short(item.targetReference));

  it('lists only the broken link with status=broken, with stats over all links', async () => {
    const { space, home, guide } = await spaceWithLinks('Links');
    const broken = await reader.spaces.listLinks(space.id, { status: 'broken' });
    expect(broken.items).toMatchObject([
      {
        status: 'broken',
        relation: 'reference',
        targetReference: { kind: 'url', url: 'missing.md' },
        locationReferences: [
          {
            kind: 'page',
            page: { id: home, title: 'Home' },
            space: { id: space.id, title: 'Links' },
            organization: { id: test.orgId },
          },
        ],
      },
    ]);
    expect(broken.stats).toEqual({ total: 4, broken: { total: 1 } });
    // The records are shown as the reader sees them, as the public document has them.
    expect(broken.items[0]?.locationReferences[0]?.space).toMatchObject({ permissions: { edit: false } });
    const raw = await callApi(`${test.baseUrl}/spaces/${space.id}/links`, test.tokens.reader);
    expect(checkResponse('GET', '/v1/spaces/{spaceId}/links', 200, raw.body)).toMatchObject({
      known: true,
      errors: [],
    });
    const pageLinks = `${test.baseUrl}/spaces/${space.id}/content/page/${home}/links`;
    const rawPage = await callApi(pageLinks, test.tokens.reader);
    const pageOperation = '/v1/spaces/{spaceId}/content/page/{pageId}/links';
    expect(checkResponse('GET', pageOperation, 200, rawPage.body)).toMatchObject({ known: true, errors: [] });

    const inApp = await reader.spaces.listLinks(space.id, { status: 'in-app' });
    expect(targets(inApp.items)).toEqual([{ kind: 'url', url: appLink }]);
    const ok = await reader.spaces.listLinks(space.id, { status: 'ok' });
    expect(targets(ok.items)).toEqual([
      { kind: 'page', id: guide },
      { kind: 'url', url: 'https://example.com/docs' },
    ]);
    const all = await reader.spaces.listLinks(space.id);
    expect(all.items.map((item) => item.status)).toEqual(['ok', 'broken', 'in-app', 'ok']);
    const firstTwo = await reader.spaces.listLinks(space.id, { limit: 2 });
    expect(firstTwo.items).toEqual(all.items.slice(0, 2));
    expect(firstTwo.stats).toEqual(all.stats);
    const rest = await reader.spaces.listLinks(space.id, { limit: 2, page: firstTwo.next?.page });
    expect([...firstTwo.items, ...rest.items]).toEqual(all.items);
    expect(rest.next).toBeUndefined();
  });

  it("counts in a change request's page links only the links the change request broke", async () => {
    const { space, home } = await spaceWithLinks('Change request links');
    const cr = await client.changeRequests.create(space.id, { subject: 'Rework the home page' });
    // Keeps the already broken missing.md, adds gone.md, and removes guide.md that Home links to.
    await importInto(space.id, cr.id, {
      'README.md': '# Home\n\n[guide](guide.md), [old](missing.md), [new](gone.md)\n',
    });
    const target = { spaceId: space.id, changeRequestId: cr.id };
    const links = await client.content.listPageLinks(target, home, { status: 'broken' });
    expect(targets(links.items)).toEqual([
      { kind: 'url', url: 'guide.md' },
      { kind: 'url', url: 'missing.md' },
      { kind: 'url', url: 'gone.md' },
    ]);
    expect(links.stats).toEqual({ total: 3, broken: { total: 3, changeRequest: 2 } });
    const walked: LinkCheckItem[] = [];
    for await (const link of client.content.listPageLinksAll(target, home, { status: 'broken' }))
      walked.push(link);
    expect(walked).toEqual(links.items);

    const main = await client.content.listPageLinks({ spaceId: space.id }, home);
    expect(main.stats).toEqual({ total: 4, broken: { total: 1 } });
    // A change request that fixes the broken link broke nothing.
    const fixing = await client.changeRequests.create(space.id, { subject: 'Fix links' });
    await importInto(space.id, fixing.id, { ...folder, 'README.md': '# Home\n\n[guide](guide.md)\n' });
    const fixed = await client.content.listPageLinks(
      { spaceId: space.id, changeRequestId: fixing.number },
      home,
    );
    expect(fixed.stats).toEqual({ total: 1, broken: { total: 0, changeRequest: 0 } });
    await expectApiStatus(client.content.listPageLinks(target, 'pg_unknown'), 404);
  });

  it("lists a change request's links in one list, all broken ones or only those it broke", async () => {
    const { space, home } = await spaceWithLinks('Change request link list');
    const cr = await client.changeRequests.create(space.id, { subject: 'Rework two pages' });
    await importInto(space.id, cr.id, {
      'README.md': '# Home\n\n[guide](guide.md), [old](missing.md), [new](gone.md)\n',
      'guide.md': '# Guide\n\nNow see [the old page](missing.md) and [home](README.md).\n',
    });
    const { pages } = await client.content.getPages({ spaceId: space.id, changeRequestId: cr.id });
    const guide = pages.find((page) => page.title === 'Guide')?.id;
    const broken = await reader.changeRequests.listLinks(space.id, cr.id, { status: 'broken' });
    expect(targets(broken.items)).toEqual([
      { kind: 'url', url: 'missing.md' },
      { kind: 'url', url: 'gone.md' },
    ]);
    // A link written on two pages is one item with both locations.
    expect(broken.items[0]?.locationReferences.map((location) => location.page?.id)).toEqual([home, guide]);
    expect(broken.stats).toEqual({ total: 4, broken: { total: 2, changeRequest: 1 } });
    const raw = await callApi(
      `${test.baseUrl}/spaces/${space.id}/change-requests/${cr.id}/links`,
      test.tokens.reader,
    );
    const operation = '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/links';
    expect(checkResponse('GET', operation, 200, raw.body)).toMatchObject({ known: true, errors: [] });

    const introduced = await callApi<{ items: LinkCheckItem[] }>(
      `${test.baseUrl}/spaces/${space.id}/change-requests/${cr.number}/links?status=broken&brokenContext=change-request`,
      test.tokens.reader,
    );
    expect(targets(introduced.body.items)).toEqual([{ kind: 'url', url: 'gone.md' }]);
    const refused = await callApi(
      `${test.baseUrl}/spaces/${space.id}/change-requests/${cr.id}/links?brokenContext=everywhere`,
      test.tokens.reader,
    );
    expect(refused.status).toBe(400);
    await expectApiStatus(reader.changeRequests.listLinks(space.id, 'cr_unknown'), 404);
  });
});
