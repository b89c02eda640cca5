// What the local service serves about imported content beyond what docsync reads (its revision,
// pages and links: test/integration/api-client): the files and where each is used, search in a
// space and across the organization, and a change request as a PDF.
import { describe, expect, it } from 'vitest';
import { type DocsFolder, docsZip, LOGO_PNG } from '../../support/docs-archives.js';
import { startFileServer } from '../../support/file-server.js';
import { checkResponse } from '../../support/service-document.js';
import { bodyOf, errorOf, serviceAs } from '../../support/service-request.js';
import { startTestEmulator } from '../../support/start-test-emulator.js';

interface Page {
  id: string;
  title: string;
  pages?: Page[];
}
interface RevisionFile {
  id: string;
  name: string;
  downloadURL: string;
}
interface Listed<T> {
  items: T[];
}
interface SearchHit {
  id: string;
  title: string;
  path: string;
  sections?: Array<{ title: string; body: string }>;
}
interface OrgSearchHit {
  id: string;
  title: string;
  pages: Array<{ id: string; title: string; path: string }>;
}

const QUOKKA_DOCS: DocsFolder = {
  'README.md': '# Home\n\nSee [the guide](guide.md).\n',
  'guide.md':
    '# Guide\n\nThe quokka lives on Rottnest Island.\n\n## Feeding\n\nNever feed a quokka bread.\n\n## Photos\n\nSelfies are fine.\n',
};

function flatten(pages: readonly Page[]): Page[] {
  return pages.flatMap((page) => [page, ...flatten(page.pages ?? [])]);
}

describe('reads of imported content in the local service', async () => {
  const test = await startTestEmulator();
  const files = await startFileServer();
  const admin = serviceAs(test, test.tokens.admin);
  const reader = serviceAs(test, test.tokens.reader);
  let served = 0;

  /** A new space, or its new change request when `changeRequest` is given, holding `docs`. */
  async function imported(title: string, docs?: DocsFolder, changeRequest?: { subject: string }) {
    const space = await bodyOf(admin<{ id: string }>(`/orgs/${test.orgId}/spaces`, 'POST', { title }), 201);
    const cr =
      changeRequest === undefined
        ? undefined
        : await bodyOf(
            admin<{ id: string; number: number }>(
              `/spaces/${space.id}/change-requests`,
              'POST',
              changeRequest,
            ),
            201,
          );
    const target = cr === undefined ? `/spaces/${space.id}` : `/spaces/${space.id}/change-requests/${cr.id}`;
    served += 1;
    const url = files.put(`/docs-${served}.zip`, await docsZip(docs));
    await bodyOf(admin(`${target}/content/import`, 'POST', { url, source: 'zip' }), 201);
    const { pages } = await bodyOf(reader<{ pages: Page[] }>(`${target}/content/pages`));
    const idOf = (pageTitle: string) => flatten(pages).find((page) => page.title === pageTitle)?.id ?? '';
    return { spaceId: space.id, cr, target, idOf };
  }

  it('lists and reads the files; the download address serves the bytes without a token', async () => {
    const { target } = await imported('Files', undefined, { subject: 'Import the docs' });
    const listed = await bodyOf(reader<Listed<RevisionFile>>(`${target}/content/files`));
    expect(listed.items).toEqual([
      expect.objectContaining({
        name: 'logo.png',
        contentType: 'image/png',
        size: LOGO_PNG.length,
        git: expect.objectContaining({ path: 'images/logo.png' }),
      }),
    ]);
    const logo = listed.items[0];
    const file = await bodyOf(reader<RevisionFile>(`${target}/content/files/${logo?.id}`));
    expect(file).toEqual(logo);
    const download = await fetch(file.downloadURL);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await download.arrayBuffer()).equals(LOGO_PNG)).toBe(true);
    expect((await reader(`${target}/content/files/fl_unknown`)).status).toBe(404);
  });

  it("lists the image's backlinks: the two pages that show it", async () => {
    const { spaceId, target, idOf } = await imported('Backlinks', undefined, { subject: 'Import the docs' });
    const logo = (await bodyOf(reader<Listed<RevisionFile>>(`${target}/content/files`))).items[0];
    const path = `${target}/content/files/${logo?.id}/backlinks`;
    const backlinks = await bodyOf(reader<Listed<{ page: { id: string } }>>(path));
    // ContentLocation records: the page, its space and organization as the records themselves.
    // `target` is the change request the content was imported into.
    const operation =
      '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}/backlinks';
    expect(checkResponse('GET', operation, 200, backlinks)).toMatchObject({ known: true, errors: [] });
    expect(backlinks.items.map((backlink) => backlink.page.id)).toEqual([
      idOf('Welcome'),
      idOf('Installing'),
    ]);
    for (const backlink of backlinks.items) {
      expect(backlink).toMatchObject({
        kind: 'page',
        space: { object: 'space', id: spaceId },
        organization: { object: 'organization', id: test.orgId },
        page: { type: 'document' },
      });
    }
    expect((await reader(`${target}/content/files/fl_unknown/backlinks`)).status).toBe(404);
  });

  it('finds a page in a space by a word of its markdown, with the matching sections', async () => {
    const { spaceId, idOf } = await imported('Search', QUOKKA_DOCS);
    const search = async (query: string) =>
      (await bodyOf(reader<Listed<SearchHit>>(`/spaces/${spaceId}/search?query=${query}`))).items;
    const found = await search('QUOKKA');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ id: idOf('Guide'), title: 'Guide', path: 'guide' });
    expect(found[0]?.sections?.map((section) => section.title)).toEqual(['Guide', 'Feeding']);
    expect(found[0]?.sections?.[1]?.body).toBe('Never feed a quokka bread.');
    expect((await search('Home')).map((hit) => hit.id)).toEqual([idOf('Home')]);
    expect(await search('wombat')).toEqual([]);
    expect((await search('e')).map((hit) => hit.id)).toEqual([idOf('Home'), idOf('Guide')]);
  });

  it('finds pages across the organization, space by space, leaving deleted spaces out', async () => {
    const found = await imported('Org search', QUOKKA_DOCS);
    const other = await bodyOf(
      admin<{ id: string }>(`/orgs/${test.orgId}/spaces`, 'POST', { title: 'No quokkas' }),
      201,
    );
    const gone = await imported('Deleted', QUOKKA_DOCS);
    await bodyOf(admin(`/spaces/${gone.spaceId}`, 'DELETE'), 205);
    const hits = (await bodyOf(reader<Listed<OrgSearchHit>>(`/orgs/${test.orgId}/search?query=rottnest`)))
      .items;
    expect(hits.map((hit) => hit.id)).toContain(found.spaceId);
    expect(hits.map((hit) => hit.id)).not.toContain(other.id);
    expect(hits.map((hit) => hit.id)).not.toContain(gone.spaceId);
    expect(hits.find((hit) => hit.id === found.spaceId)).toMatchObject({
      title: 'Org search',
      pages: [{ id: found.idOf('Guide'), title: 'Guide', path: 'guide' }],
    });
  });

  it('takes a search query of up to 512 characters: longer or empty is a 400', async () => {
    const { spaceId } = await imported('Limits', QUOKKA_DOCS);
    for (const scope of [`/spaces/${spaceId}`, `/orgs/${test.orgId}`]) {
      expect((await reader(`${scope}/search?query=${'q'.repeat(512)}`)).status).toBe(200);
      expect(await errorOf(reader(`${scope}/search?query=${'q'.repeat(513)}`), 400)).toMatch(/query/);
      expect((await reader(`${scope}/search?query=`)).status).toBe(400);
      expect((await reader(`${scope}/search`)).status).toBe(400);
    }
  });

  it('exports a change request as a PDF: an address serving application/pdf that starts with %PDF', async () => {
    const { spaceId, cr, idOf } = await imported('Printed', undefined, { subject: 'Print me' });
    const pdf = `/spaces/${spaceId}/change-requests/${cr?.number}/pdf`;
    const { url } = await bodyOf(reader<{ url: string }>(pdf));
    const answer = await fetch(url);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await answer.arrayBuffer());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(bytes.toString('latin1')).toContain(`(#${cr?.number} Print me)`);
    expect(bytes.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
    const page = idOf('Welcome');
    const single = await bodyOf(reader<{ url: string }>(`${pdf}?only=true&page=${page}`));
    expect(new URL(single.url).searchParams.get('page')).toBe(page);
    expect((await reader(`/spaces/${spaceId}/change-requests/42/pdf`)).status).toBe(404);
  });
});
