// A change request's link check as docsync reads it from the local service: one list of the
// change request's broken links and its page tree, whatever its number of pages (read page by page,
// a 50,000-page change request was 50,000 reads, over an hour against a distant service), given
// back one per page a link is on, in the pages' order, each page named from the tree with its git
// file. A service without that list, or whose list leaves out links its stats count, is read page
// by page instead, to the same broken links. `docsync once` reads the same, with the documents they
// are on.
import { describe, expect, it } from 'vitest';
import type { LinkCheckList } from '../../../src/api/schemas/link-check-list-schema.js';
import type { StoredPage } from '../../../src/emulator/emulator-state.js';
import { readChangeRequestLinks, readLinkCheck } from '../../../src/links/read-link-check.js';
import {
  addRevision,
  callApi,
  createTestSpace,
  startTestEmulator,
  testPage,
} from '../../support/start-test-emulator.js';
import { testApiClient } from '../../support/test-api-client.js';

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

/** A change request's list of links, as the service answers it. */
const CHANGE_REQUEST_LIST = /\/change-requests\/[^/]+\/links(\?|$)/;

/**
 * A service with the change request above. `list` changes the answer of its list of links:
 * `missing`, a service without it (404); a function, the list's body rewritten.
 */
async function setUp(list?: 'missing' | ((body: LinkCheckList) => LinkCheckList)) {
  /** The paths of the service's answers, in the order asked. */
  const asked: string[] = [];
  const emulator = await startTestEmulator({
    prepare: ({ app }) => {
      app.addHook('onRequest', async (request, reply) => {
        asked.push(`${request.method} ${request.url.replace(/\?.*$/, '')}`);
        if (list === 'missing' && CHANGE_REQUEST_LIST.test(request.url))
          await reply.code(404).send({ error: { code: 404, message: 'Not found' } });
      });
      app.addHook('onSend', async (request, _reply, payload) => {
        if (typeof list !== 'function' || !CHANGE_REQUEST_LIST.test(request.url)) return payload;
        return JSON.stringify(list(JSON.parse(String(payload)) as LinkCheckList));
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
  const { client: api } = testApiClient(emulator);
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

  it('is read page by page from a service without the list, to the same broken links', async () => {
    const { space, changeRequest, api, asked } = await setUp('missing');
    asked.length = 0;
    const checked = await readLinkCheck(api, { space, changeRequest }, new AbortController().signal);
    expect(checked.broken.map((link) => ({ pageId: link.pageId, target: link.target }))).toEqual(EXPECTED);
    expect(checked.broken[0]).toMatchObject({ pageTitle: 'Page section-0', sourcePath: 'section-0.md' });
    // Each page's stats summed: a link on two pages counts on both.
    expect(checked.stats.broken.total).toBe(EXPECTED.length);
    expect(asked.filter((path) => /\/page\/[^/]+\/links$/.test(path))).toHaveLength(
      SECTIONS * (PAGES_PER_SECTION + 1),
    );
  });

  it('is read page by page when the list holds fewer broken links than its stats count', async () => {
    // A service whose list leaves out a link (one also broken on main, say) that its stats count.
    const { space, changeRequest, api, asked } = await setUp((body) => ({
      ...body,
      items: body.items.slice(1),
    }));
    const checked = await readLinkCheck(api, { space, changeRequest }, new AbortController().signal);
    expect(checked.broken.map((link) => ({ pageId: link.pageId, target: link.target }))).toEqual(EXPECTED);
    expect(asked.some((path) => /\/page\/[^/]+\/links$/.test(path))).toBe(true);
  });

  it('gives a page a link is written on twice one broken link', async () => {
    // The service may name a page once per place the link is in it.
    const { space, changeRequest, api, asked } = await setUp((body) => ({
      ...body,
      items: body.items.map((item) => ({
        ...item,
        locationReferences: [...item.locationReferences, ...item.locationReferences],
      })),
    }));
    const checked = await readLinkCheck(api, { space, changeRequest }, new AbortController().signal);
    expect(checked.broken.map((link) => ({ pageId: link.pageId, target: link.target }))).toEqual(EXPECTED);
    expect(asked.some((path) => /\/page\/[^/]+\/links$/.test(path))).toBe(false);
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
