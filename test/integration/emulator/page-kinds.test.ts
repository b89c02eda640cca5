// The local service importing a docs folder with SUMMARY.md groups, link entries and entries without
// a file, and showing them as the public document's page types; change request merges keep them.
import { describe, expect, it } from 'vitest';
import { type DocsFolder, docsZip, LOGO_PNG } from '../../support/docs-archives.js';
import { startFileServer } from '../../support/file-server.js';
import { callApi, startTestEmulator } from '../../support/start-test-emulator.js';

const SUMMARY = [
  '# Summary',
  '',
  '* [Welcome](README.md)',
  '* Overview',
  '  * [Install](guides/install.md)',
  '',
  '## Reference',
  '',
  '* [API](reference/api.md)',
  '* [Status page](https://status.example.com)',
  '* [Gone](gone.md)',
  '',
].join('\n');

const FOLDER: DocsFolder = {
  'README.md': '# Welcome\n\nStart with [the install guide](guides/install.md).\n',
  'SUMMARY.md': SUMMARY,
  'guides/install.md': '# Install\n\nRun the installer.\n',
  'reference/api.md': '# API\n\nSee ![the logo](../images/logo.png).\n',
  'old-notes.md': '# Notes no summary lists\n',
  'images/logo.png': LOGO_PNG,
  '.DS_Store': Buffer.from([0, 0, 0, 1]),
};

type Page = Record<string, unknown> & { id: string; title: string; pages?: Page[] };

describe('pages of every type in the local service', async () => {
  const test = await startTestEmulator();
  const files = await startFileServer();
  const admin = test.tokens.admin;
  const api = <T>(path: string, method = 'GET', body?: unknown) =>
    callApi<T>(`${test.baseUrl}${path}`, admin, method, body);

  async function newSpace(): Promise<string> {
    return (await api<{ id: string }>(`/orgs/${test.orgId}/spaces`, 'POST', { title: 'Kinds' })).body.id;
  }

  async function importInto(target: string, folder: DocsFolder, name: string) {
    const url = files.put(`/${name}.zip`, await docsZip(folder), 'application/zip');
    const answer = await api<{ revision: string; importedResources: number; totalResources: number }>(
      `${target}/content/import`,
      'POST',
      { url, source: 'zip' },
    );
    expect(answer.status).toBe(201);
    return answer.body;
  }

  it('imports groups, links and entries without a file, and renders them as the public document does', async () => {
    const space = await newSpace();
    const result = await importInto(`/spaces/${space}`, FOLDER, 'kinds');
    // Six pages (a group and a link among them) and the logo; the metadata file and the page the
    // summary does not list are in the archive but not imported.
    expect(result).toMatchObject({ importedResources: 7, totalResources: 9 });

    const { pages } = (await api<{ pages: Page[] }>(`/spaces/${space}/content`)).body;
    const at = (at: string) => ({ createdAt: at, updatedAt: at });
    const created = String(pages[0]?.createdAt);
    expect(pages).toEqual([
      {
        id: expect.any(String),
        title: 'Welcome',
        kind: 'sheet',
        type: 'document',
        ...at(created),
        markdown: FOLDER['README.md'],
        urls: { app: expect.stringContaining('/app/p/') },
        slug: 'readme',
        path: 'readme',
        git: { oid: expect.stringMatching(/^[0-9a-f]{40}$/), path: 'README.md' },
        layout: expect.objectContaining({ title: true, tableOfContents: true }),
        pages: [],
      },
      {
        id: expect.any(String),
        title: 'Overview',
        kind: 'sheet',
        type: 'document',
        ...at(created),
        markdown: '',
        urls: { app: expect.stringContaining('/app/p/') },
        slug: 'overview',
        path: 'overview',
        layout: expect.objectContaining({ title: true, tableOfContents: true }),
        pages: [
          expect.objectContaining({
            title: 'Install',
            type: 'document',
            path: 'overview/install',
            git: expect.objectContaining({ path: 'guides/install.md' }),
          }),
        ],
      },
      {
        id: expect.any(String),
        title: 'Reference',
        kind: 'group',
        type: 'group',
        ...at(created),
        slug: 'reference',
        path: 'reference',
        pages: [
          expect.objectContaining({
            title: 'API',
            type: 'document',
            path: 'reference/api',
            git: expect.objectContaining({ path: 'reference/api.md' }),
          }),
          {
            id: expect.any(String),
            title: 'Status page',
            kind: 'link',
            type: 'link',
            ...at(created),
            target: { kind: 'url', url: 'https://status.example.com' },
            href: 'https://status.example.com',
          },
        ],
      },
    ]);

    // Each page reads on its own too, and search finds a page inside a group by its site path.
    const link = pages[2]?.pages?.[1];
    const one = await api<Page>(`/spaces/${space}/content/page/${link?.id}`);
    expect(one.body).toMatchObject({ type: 'link', href: 'https://status.example.com' });
    const search = await api<{ items: Array<{ title: string; path: string }> }>(
      `/spaces/${space}/search?query=API`,
    );
    expect(search.body.items.map(({ title, path }) => ({ title, path }))).toEqual([
      { title: 'API', path: 'reference/api' },
    ]);
    // The image link of a page inside the group resolves.
    const links = await api<{ stats: { broken: { total: number } } }>(`/spaces/${space}/links`);
    expect(links.body.stats.broken.total).toBe(0);
  });

  it('keeps them through a change request merged after main changed, with both sides’ edits', async () => {
    const space = await newSpace();
    await importInto(`/spaces/${space}`, FOLDER, 'start');
    const cr = (await api<{ id: string }>(`/spaces/${space}/change-requests`, 'POST', { subject: 'Links' }))
      .body;
    // The change request retitles the group and adds a link entry to it.
    const edited = SUMMARY.replace('## Reference', '## API reference').replace(
      '* [Gone](gone.md)',
      '* [Chat](https://chat.example.com)',
    );
    await importInto(`/spaces/${space}/change-requests/${cr.id}`, { ...FOLDER, 'SUMMARY.md': edited }, 'cr');
    // Main meanwhile edits a page inside the group.
    const mainEdit = { ...FOLDER, 'reference/api.md': '# API\n\nEdited on main.\n' };
    await importInto(`/spaces/${space}`, mainEdit, 'main');

    const merge = await api<{ result: string }>(`/spaces/${space}/change-requests/${cr.id}/merge`, 'POST');
    expect(merge.status).toBe(200);
    const { pages } = (await api<{ pages: Page[] }>(`/spaces/${space}/content`)).body;
    const outline = (list: readonly Page[] | undefined): unknown[] =>
      (list ?? []).map((page) =>
        (page.pages ?? []).length > 0
          ? [`${page.type}:${page.title}`, outline(page.pages)]
          : `${page.type}:${page.title}`,
      );
    expect(outline(pages)).toEqual([
      'document:Welcome',
      ['document:Overview', ['document:Install']],
      ['group:API reference', ['document:API', 'link:Status page', 'link:Chat']],
    ]);
    const apiPage = pages[2]?.pages?.[0];
    expect(apiPage?.markdown).toBe(mainEdit['reference/api.md']);
    expect(pages[1]).not.toHaveProperty('git');
  });
});
