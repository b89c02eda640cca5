// docsync's client importing docs folders into the emulator over HTTP, as the sync job does: the
// zip is served from an address the service fetches, then the content is read back as a revision
// with its pages and files. Hostile or broken sources are refused and change nothing.
import { describe, expect, it } from 'vitest';
import type { ContentTarget } from '../../../src/api/call-options.js';
import type { RevisionPage } from '../../../src/api/schemas/revision-page-schema.js';
import { expectApiStatus } from '../../support/api-error-of.js';
import { docsZip, LOGO_PNG, rawZip, SAMPLE_DOCS } from '../../support/docs-archives.js';
import { closedPort, startFileServer } from '../../support/file-server.js';
import { bodyOf, serviceAs } from '../../support/service-request.js';
import { startTestEmulator } from '../../support/start-test-emulator.js';
import { testApiClient } from '../../support/test-api-client.js';

const FETCH_MAX_BYTES = 256 * 1024;

/** Titles as nested lists: `['Guides', ['Installing', 'Configure']]` for a page with children. */
type Outline = Array<string | [string, Outline]>;
function outline(pages: readonly RevisionPage[] | undefined): Outline {
  return (pages ?? []).map((page) =>
    page.pages !== undefined && page.pages.length > 0
      ? [page.title ?? '?', outline(page.pages)]
      : (page.title ?? '?'),
  );
}

function flatten(pages: readonly RevisionPage[] | undefined): RevisionPage[] {
  return (pages ?? []).flatMap((page) => [page, ...flatten(page.pages)]);
}

const SAMPLE_OUTLINE: Outline = ['Welcome', ['Guides', ['Installing', 'Configure']], 'FAQ'];

describe('content import through the client', async () => {
  const test = await startTestEmulator({ limits: { fetchMaxBytes: FETCH_MAX_BYTES } });
  const files = await startFileServer();
  const { client, attempts } = testApiClient(test);
  const reader = testApiClient(test, test.tokens.reader).client;
  const commenter = testApiClient(test, test.tokens.commenter).client;
  const sampleUrl = files.put('/docs.zip', await docsZip(), 'application/zip');

  /** A new space with an open change request, and the change request's content address. */
  async function changeRequestTarget() {
    const space = await client.spaces.create(test.orgId, { title: 'Imports' });
    const changeRequest = await client.changeRequests.create(space.id, { subject: 'Import the docs' });
    const target: ContentTarget = { spaceId: space.id, changeRequestId: changeRequest.id };
    return { space, changeRequest, target };
  }

  /** A change request holding the imported sample folder. */
  async function importedSample() {
    const made = await changeRequestTarget();
    const result = await client.content.importContent(made.target, { url: sampleUrl, source: 'zip' });
    return { ...made, result };
  }

  it('imports a zip into a change request (201): a new revision, counted resources, main untouched', async () => {
    const { space, target, result } = await importedSample();
    expect(attempts.at(-1)?.status).toBe(201);
    // Five pages and the logo; the SUMMARY orders pages and is not a resource of its own.
    expect(result).toEqual({ revision: expect.any(String), importedResources: 6, totalResources: 6 });
    const changeRequest = await client.changeRequests.get(space.id, target.changeRequestId ?? '');
    expect(changeRequest.revision).toBe(result.revision);
    expect(changeRequest.revisionInitial).toBe(space.revision);
    const main = await client.spaces.get(space.id);
    expect(main.revision).toBe(space.revision);
    expect((await client.content.getRevision({ spaceId: space.id })).pages).toEqual([]);

    // Tool metadata in the archive is counted but not imported.
    const withMetadata = files.put(
      '/with-metadata.zip',
      await docsZip({ ...SAMPLE_DOCS, '.DS_Store': Buffer.from([0, 0, 0, 1]) }),
    );
    const again = await client.content.importContent(target, { url: withMetadata, source: 'zip' });
    expect(again).toMatchObject({ importedResources: 6, totalResources: 7 });
  });

  it('reads back the pages in SUMMARY order and nesting, with titles, paths and markdown', async () => {
    const { target, result } = await importedSample();
    const revision = await client.content.getRevision(target);
    expect(revision.id).toBe(result.revision);
    expect(outline(revision.pages)).toEqual(SAMPLE_OUTLINE);
    expect(revision.files).toEqual([
      expect.objectContaining({
        name: 'logo.png',
        size: LOGO_PNG.length,
        git: { oid: expect.stringMatching(/^[0-9a-f]{40}$/), path: 'images/logo.png' },
      }),
    ]);
    const { pages } = await client.content.getPages(target);
    expect(outline(pages)).toEqual(SAMPLE_OUTLINE);
    expect(flatten(pages).map((page) => page.path)).toEqual([
      'readme',
      'guides',
      'guides/install',
      'guides/configure',
      'faq',
    ]);

    const install = flatten(pages).find((page) => page.title === 'Installing');
    expect(install).toBeDefined();
    const page = await client.content.getPage(target, install?.id ?? '', { format: 'markdown' });
    expect(page).toMatchObject({
      id: install?.id,
      title: 'Installing',
      path: 'guides/install',
      slug: 'install',
      markdown: SAMPLE_DOCS['guides/install.md'],
      git: { path: 'guides/install.md' },
    });
    // The same page through the reader's token: content is readable with the read role.
    expect((await reader.content.getPage(target, page.id)).markdown).toBe(page.markdown);
  });

  it('keeps page and file ids across a re-import, so comments and links that name them survive', async () => {
    const { target, result } = await importedSample();
    const before = flatten((await client.content.getPages(target)).pages);
    const edited = files.put(
      '/edited.zip',
      await docsZip({ ...SAMPLE_DOCS, 'faq.md': '# FAQ\n\nDo quokkas read docs? All of them.\n' }),
    );
    const second = await client.content.importContent(target, { url: edited, source: 'zip' });
    expect(second.revision).not.toBe(result.revision);
    const after = flatten((await client.content.getPages(target)).pages);
    expect(after.map((page) => page.id)).toEqual(before.map((page) => page.id));
    const faqBefore = before.find((page) => page.title === 'FAQ');
    const faqAfter = after.find((page) => page.title === 'FAQ');
    expect(faqAfter?.markdown).toContain('All of them');
    expect(faqAfter?.createdAt).toBe(faqBefore?.createdAt);
    const welcomeBefore = before.find((page) => page.title === 'Welcome');
    expect(after.find((page) => page.title === 'Welcome')?.updatedAt).toBe(welcomeBefore?.updatedAt);
  });

  it('refuses hostile and broken sources with 400, leaving the change request as it was', async () => {
    const { space, changeRequest, target, result } = await importedSample();
    const port = await closedPort();
    const bomb = Buffer.alloc(4 * FETCH_MAX_BYTES);
    const cases: Array<{ name: string; url: string; reason: RegExp }> = [
      {
        name: 'an entry leaving the folder',
        url: files.put(
          '/escape.zip',
          rawZip([
            { name: 'README.md', data: Buffer.from('# Hi\n') },
            { name: '../evil.md', data: Buffer.from('# Evil\n') },
          ]),
        ),
        reason: /\.\.\/evil\.md/,
      },
      {
        name: 'an absolute entry',
        url: files.put('/absolute.zip', rawZip([{ name: '/etc/evil.md', data: Buffer.from('# Evil\n') }])),
        reason: /\/etc\/evil\.md.*absolute/,
      },
      {
        name: 'a zip bomb over the limit',
        url: files.put('/bomb.zip', rawZip([{ name: 'bomb.txt', data: bomb, deflate: true }])),
        reason: /bomb\.txt/,
      },
      {
        name: 'a zip bomb whose header lies about its size',
        url: files.put(
          '/liar.zip',
          rawZip([{ name: 'bomb.txt', data: bomb, deflate: true, declaredSize: 1000 }]),
        ),
        reason: /bomb\.txt/,
      },
      {
        name: 'garbage bytes',
        url: files.put('/garbage.zip', Buffer.from('this is not a zip archive at all\n'.repeat(20))),
        reason: /not a readable zip/,
      },
      {
        name: 'a download over the size limit',
        url: files.put('/huge.zip', Buffer.alloc(FETCH_MAX_BYTES + 1, 1)),
        reason: /larger than/,
      },
      {
        // A page that is not there is read past (docs/folder-format.md); a control character is hostile.
        name: 'a SUMMARY link holding a control character',
        url: files.put(
          '/hostile-summary.zip',
          await docsZip({ ...SAMPLE_DOCS, 'SUMMARY.md': '* [Evil](evil%00.md)\n' }),
        ),
        reason: /SUMMARY\.md:1: the link "evil%00\.md" holds a control character/,
      },
      { name: 'an address answering 404', url: `${files.origin}/missing.zip`, reason: /HTTP 404/ },
      {
        name: 'an unreachable address',
        url: `http://127.0.0.1:${port}/docs.zip`,
        reason: /could not be read/,
      },
      { name: 'an address that is not http', url: 'ftp://127.0.0.1/docs.zip', reason: /url/ },
    ];
    const revisionsBefore = Object.keys(test.emulator.state.revisions).length;
    for (const { name, url, reason } of cases) {
      const error = await expectApiStatus(client.content.importContent(target, { url, source: 'zip' }), 400);
      expect({ name, message: error.serviceMessage }).toEqual({
        name,
        message: expect.stringMatching(reason),
      });
      expect(error.retryable).toBe(false);
    }
    expect(Object.keys(test.emulator.state.revisions).length).toBe(revisionsBefore);
    const unchanged = await client.changeRequests.get(space.id, changeRequest.id);
    expect(unchanged.revision).toBe(result.revision);
    expect(outline((await client.content.getPages(target)).pages)).toEqual(SAMPLE_OUTLINE);
  });

  it("adds one page with source 'markdown' and refuses source 'website'", async () => {
    const { space, changeRequest, target, result } = await importedSample();
    const notes = files.put('/notes.md', '# Release notes\n\nNew: zebra mode.\n', 'text/markdown');
    const added = await client.content.importContent(target, { url: notes, source: 'markdown' });
    expect(added).toMatchObject({ importedResources: 1, totalResources: 1 });
    const { pages } = await client.content.getPages(target);
    expect(outline(pages)).toEqual([...SAMPLE_OUTLINE, 'Release notes']);
    expect(pages.at(-1)?.markdown).toBe('# Release notes\n\nNew: zebra mode.\n');

    const website = await expectApiStatus(
      client.content.importContent(target, { url: `${files.origin}/site/`, source: 'website' }),
      400,
    );
    expect(website.serviceMessage).toMatch(/website/);
    expect((await client.changeRequests.get(space.id, changeRequest.number)).revision).toBe(added.revision);
    expect(added.revision).not.toBe(result.revision);
  });

  it('imports into the main content, which moves the space to the new revision', async () => {
    const space = await client.spaces.create(test.orgId, { title: 'Main imports' });
    const result = await client.content.importContent(
      { spaceId: space.id },
      { url: sampleUrl, source: 'zip' },
    );
    expect((await client.spaces.get(space.id)).revision).toBe(result.revision);
    expect(outline((await client.content.getRevision({ spaceId: space.id })).pages)).toEqual(SAMPLE_OUTLINE);
  });

  it('needs the edit role, an editable space and an open change request', async () => {
    const { space, changeRequest, target } = await changeRequestTarget();
    const source = { url: sampleUrl, source: 'zip' } as const;
    await expectApiStatus(reader.content.importContent(target, source), 403);
    await expectApiStatus(commenter.content.importContent(target, source), 403);

    await bodyOf(serviceAs(test, test.tokens.admin)(`/spaces/${space.id}`, 'PATCH', { editMode: 'locked' }));
    await expectApiStatus(client.content.importContent({ spaceId: space.id }, source), 403);
    // A locked space is edited through change requests.
    await client.content.importContent(target, source);

    await client.changeRequests.patch(space.id, changeRequest.id, { status: 'archived' });
    const archived = await expectApiStatus(client.content.importContent(target, source), 400);
    expect(archived.serviceMessage).toMatch(/archived/);
    await expectApiStatus(
      client.content.importContent({ spaceId: space.id, changeRequestId: 'cr_unknown' }, source),
      404,
    );
  });
});
