// docsync's client reading the emulator's link checks and search over HTTP: broken, ok and in-app
// links of the main content and of a change request (which counts only the links it broke), and
// search by a word of a page's markdown in a space and across the organization.
import { describe, expect, it } from 'vitest';
import type { LinkCheckItem } from '../../../src/api/schemas/link-check-list-schema.js';
import { type DocsFolder, docsZip } from '../../support/docs-archives.js';
import { startFileServer } from '../../support/file-server.js';
import { callApi, startTestEmulator } from '../../support/start-test-emulator.js';
import { expectApiStatus, testApiClient } from '../../support/test-api-client.js';

interface OrgSearchHit {
  id: string;
  title: string;
  pages: Array<{ id: string; title: string; path: string }>;
}

describe('link checks and search through the client', async () => {
  const test = await startTestEmulator();
  const files = await startFileServer();
  const { client } = testApiClient(test);
  const reader = testApiClient(test, test.tokens.reader).client;
  const appLink = `${test.origin}/app/s/spc_elsewhere`;
  const folder: DocsFolder = {
    'README.md': `# Home\n\nSee [the guide](guide.md), [the old page](missing.md), [the app](${appLink}) and [elsewhere](https://example.com/docs).\n`,
    'guide.md':
      '# Guide\n\nThe quokka lives on Rottnest Island.\n\n## Feeding\n\nNever feed a quokka bread.\n\n## Photos\n\nSelfies are fine.\n',
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
  const targets = (items: readonly LinkCheckItem[]) => items.map((item) => item.targetReference);

  it('lists only the broken link with status=broken, with stats over all links', async () => {
    const { space, home, guide } = await spaceWithLinks('Links');
    const broken = await reader.spaces.listLinks(space.id, { status: 'broken' });
    expect(broken.items).toEqual([
      {
        status: 'broken',
        relation: 'link',
        targetReference: { kind: 'url', url: 'missing.md' },
        locationReferences: [{ kind: 'page', page: home, space: space.id }],
      },
    ]);
    expect(broken.stats).toEqual({ total: 4, broken: { total: 1 } });

    const inApp = await reader.spaces.listLinks(space.id, { status: 'in-app' });
    expect(targets(inApp.items)).toEqual([{ kind: 'url', url: appLink }]);
    const ok = await reader.spaces.listLinks(space.id, { status: 'ok' });
    expect(targets(ok.items)).toEqual([
      { kind: 'page', page: guide },
      { kind: 'url', url: 'https://example.com/docs' },
    ]);
    const all = await reader.spaces.listLinks(space.id);
    expect(all.items.map((item) => item.status)).toEqual(['ok', 'broken', 'in-app', 'ok']);
    const walked: LinkCheckItem[] = [];
    for await (const item of reader.spaces.listLinksAll(space.id)) walked.push(item);
    expect(walked).toEqual(all.items);
    const firstTwo = await reader.spaces.listLinks(space.id, { limit: 2 });
    expect(firstTwo.items).toEqual(all.items.slice(0, 2));
    expect(firstTwo.stats).toEqual(all.stats);
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

  it('finds a page in a space by a word of its markdown, with the matching sections', async () => {
    const { space, guide, home } = await spaceWithLinks('Search');
    const found = await reader.spaces.search(space.id, 'QUOKKA');
    expect(found.items).toHaveLength(1);
    expect(found.items[0]).toMatchObject({ id: guide, title: 'Guide', path: 'guide' });
    expect(found.items[0]?.sections?.map((section) => section.title)).toEqual(['Guide', 'Feeding']);
    expect(found.items[0]?.sections?.[1]?.body).toBe('Never feed a quokka bread.');
    expect((await reader.spaces.search(space.id, 'Home')).items.map((hit) => hit.id)).toEqual([home]);
    expect((await reader.spaces.search(space.id, 'wombat')).items).toEqual([]);
    const walked: string[] = [];
    for await (const hit of reader.spaces.searchAll(space.id, 'e')) walked.push(hit.id);
    expect(walked).toEqual([home, guide]);
  });

  it('finds pages across the organization, space by space, leaving deleted spaces out', async () => {
    const found = await spaceWithLinks('Org search');
    const other = await client.spaces.create(test.orgId, { title: 'No quokkas' });
    const gone = await spaceWithLinks('Deleted');
    await client.spaces.delete(gone.space.id);
    const answer = await callApi<{ items: OrgSearchHit[] }>(
      `${test.baseUrl}/orgs/${test.orgId}/search?query=rottnest`,
      test.tokens.reader,
    );
    expect(answer.status).toBe(200);
    const hits = answer.body.items;
    expect(hits.map((hit) => hit.id)).toContain(found.space.id);
    expect(hits.map((hit) => hit.id)).not.toContain(other.id);
    expect(hits.map((hit) => hit.id)).not.toContain(gone.space.id);
    expect(hits.find((hit) => hit.id === found.space.id)).toMatchObject({
      title: 'Org search',
      pages: [{ id: found.guide, title: 'Guide', path: 'guide' }],
    });
  });

  it('takes a query of up to 512 characters: longer or empty is a 400', async () => {
    const { space } = await spaceWithLinks('Limits');
    expect((await reader.spaces.search(space.id, 'q'.repeat(512))).items).toEqual([]);
    const long = await expectApiStatus(reader.spaces.search(space.id, 'q'.repeat(513)), 400);
    expect(long.serviceMessage).toMatch(/query/);
    await expectApiStatus(reader.spaces.search(space.id, ''), 400);
    const search = (query: string) =>
      callApi(`${test.baseUrl}/orgs/${test.orgId}/search?query=${query}`, test.tokens.reader);
    expect((await search('q'.repeat(512))).status).toBe(200);
    expect((await search('q'.repeat(513))).status).toBe(400);
    expect((await callApi(`${test.baseUrl}/orgs/${test.orgId}/search`, test.tokens.reader)).status).toBe(400);
  });
});
