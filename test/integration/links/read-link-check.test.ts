// A change request's link check as docsync reads it from the local service: one list of the
// change request's broken links and its page tree, whatever its number of pages (read page by page,
// a 50,000-page change request was 50,000 reads, over an hour against a distant service), given
// back one per page a link is on, in the pages' order, each page named from the tree with its git
// file. `docsync once` reads the same, with the documents they are on.
import { describe, expect, it } from 'vitest';
import { createDocsApiClient } from '../../../src/api/create-docs-api-client.js';
import type { StoredPage } from '../../../src/emulator/emulator-state.js';
import { readChangeRequestLinks, readLinkCheck } from '../../../src/links/read-link-check.js';
import { closeAfter } from '../../support/close-after.js';
import {
  addRevision,
  callApi,
  createTestSpace,
  startTestEmulator,
  testPage,
} from '../../support/start-test-emulator.js';

const SECTIONS = 3;
const PAGES_PER_SECTION = 4;

/** The pages that link to missing pages, and where to: in page order, as the check lists them. */
const BROKEN: Readonly<Record<string, readonly string[]>> = {
  'section-0': ['gone-intro.md'],
  'page-0-3': ['gone-old.md'],
  'page-1-2': ['gone-a.md', 'gone-b.md'],
  // The same missing page from two pages: one link of the list, written on both.
  'page-1-3': ['gone-old.md'],
  'section-2': ['gone-setup.md'],
  'page-2-3': ['gone-last.md'],
};

/** Sections of pages, each page's markdown linking to the missing pages BROKEN gives it. */
function pages(): StoredPage[] {
  const page = (slug: string, children: StoredPage[] = []): StoredPage => {
    const links = (BROKEN[slug] ?? []).map((target) => `[away](${target})`).join(' and ');
    return { ...testPage(slug, slug, children), markdown: `# ${slug}\n\n${links}\n` };
  };
  return Array.from({ length: SECTIONS }, (_, s) =>
    page(
      `section-${s}`,
      Array.from({ length: PAGES_PER_SECTION }, (_, p) => page(`page-${s}-${p}`)),
    ),
  );
}

async function setUp() {
  /** The paths of the service's answers, in the order asked. */
  const asked: string[] = [];
  const emulator = await startTestEmulator({
    prepare: ({ app }) => {
      app.addHook('onRequest', async (request) => {
        asked.push(`${request.method} ${request.url.replace(/\?.*$/, '')}`);
      });
    },
  });
  const space = await createTestSpace(emulator, 'Linked docs');
  const created = await callApi<{ id: string }>(
    `${emulator.baseUrl}/spaces/${space}/change-requests`,
    emulator.tokens.admin,
    'POST',
    { subject: 'Pages with links' },
  );
  expect(created.status).toBe(201);
  const changeRequest = created.body.id;
  addRevision(emulator.emulator, { spaceId: space, changeRequestId: changeRequest }, pages());
  const api = createDocsApiClient({
    baseUrl: emulator.baseUrl,
    token: emulator.tokens.admin,
    timeout: 30_000,
  });
  closeAfter(() => api.close());
  return { space, changeRequest, api, asked };
}

/** The broken links of the pages above, in page order. */
const EXPECTED = Object.entries(BROKEN).flatMap(([pageId, targets]) =>
  targets.map((target) => ({ pageId, target })),
);

describe("a change request's link check", () => {
  it('is one list of broken links beside the page tree, one per page a link is on, in page order', async () => {
    const { space, changeRequest, api, asked } = await setUp();
    asked.length = 0;
    const checked = await readLinkCheck(api, { space, changeRequest }, new AbortController().signal);

    expect(checked.broken.map((link) => ({ pageId: link.pageId, target: link.target }))).toEqual(EXPECTED);
    // The service's stats: the distinct broken links of the change request, each counted once.
    expect(checked.stats.broken.total).toBe(new Set(EXPECTED.map((link) => link.target)).size);
    // Named from the tree: each page's title and git file.
    expect(checked.broken[0]).toMatchObject({ pageTitle: 'Page section-0', sourcePath: 'section-0.md' });
    expect(checked.broken.at(-1)).toMatchObject({ pageId: 'page-2-3', sourcePath: 'page-2-3.md' });

    // Whatever the number of pages: the change request, its tree and one list, no page's own list.
    const prefix = `/v1/spaces/${space}/change-requests/${changeRequest}`;
    expect(asked.sort()).toEqual(
      [`GET ${prefix}`, `GET ${prefix}/content/pages`, `GET ${prefix}/links`].sort(),
    );
  });

  it('gives `docsync once` the same broken links, and the documents they are on', async () => {
    const { space, changeRequest, api } = await setUp();
    const [checked, read] = await Promise.all([
      readLinkCheck(api, { space, changeRequest }, new AbortController().signal),
      readChangeRequestLinks(
        api,
        { spaceId: space, changeRequestId: changeRequest },
        new AbortController().signal,
      ),
    ]);
    expect(read.broken).toEqual(checked.broken);
    expect(read.pages.map((page) => page.pageId)).toEqual(
      pages().flatMap((section) => [section.id, ...(section.pages ?? []).map((page) => page.id)]),
    );
    expect(read.pages[1]).toMatchObject({ pageId: 'page-0-0', sourcePath: 'page-0-0.md' });
  });
});
