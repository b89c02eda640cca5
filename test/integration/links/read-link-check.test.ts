// A change request's link check as docsync reads it from the local service: one list of broken
// links per page, a few pages at a time (a 50,000-page change request is 50,000 reads: one after
// another, hours against a distant service), given back in the pages' order with their stats
// summed, whatever order the answers come in. `docsync once` reads the same lists, with the
// documents they are on.
import { setTimeout as sleep } from 'node:timers/promises';
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

/**
 * How long the service holds a page link list before it answers: the first section's longer, so
 * that the lists read with them are answered first.
 */
const HOLD_MS = { firstSection: 60, other: 15 };
/** At most this many page link lists are read at once (src/links/read-link-check.ts). */
const PARALLEL_READS = 6;
const SECTIONS = 3;
const PAGES_PER_SECTION = 4;

/** The pages that link to missing pages, and where to: in page order, as the check lists them. */
const BROKEN: Readonly<Record<string, readonly string[]>> = {
  'section-0': ['gone-intro.md'],
  'page-0-3': ['gone-old.md'],
  'page-1-2': ['gone-a.md', 'gone-b.md'],
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
  /** Page link lists the service is answering now, and the most it answered at once. */
  const linkReads = { now: 0, most: 0, total: 0 };
  const isLinkRead = (url: string) => /\/page\/[^/?]+\/links(\?|$)/.test(url);
  const emulator = await startTestEmulator({
    prepare: ({ app }) => {
      app.addHook('onRequest', async (request) => {
        if (!isLinkRead(request.url)) return;
        linkReads.now += 1;
        linkReads.total += 1;
        linkReads.most = Math.max(linkReads.most, linkReads.now);
        // Held a while, so that reads sent at once are answered at once for certain.
        await sleep(/\/page\/(section|page)-0\b/.test(request.url) ? HOLD_MS.firstSection : HOLD_MS.other);
      });
      app.addHook('onResponse', async (request) => {
        if (isLinkRead(request.url)) linkReads.now -= 1;
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
  return { space, changeRequest, api, linkReads };
}

/** The broken links of the pages above, in page order. */
const EXPECTED = Object.entries(BROKEN).flatMap(([pageId, targets]) =>
  targets.map((target) => ({ pageId, target })),
);

describe("a change request's link check", () => {
  it('is read a few pages at a time, in page order, with the stats of all pages summed', async () => {
    const { space, changeRequest, api, linkReads } = await setUp();
    const checked = await readLinkCheck(api, { space, changeRequest }, new AbortController().signal);

    expect(checked.broken.map((link) => ({ pageId: link.pageId, target: link.target }))).toEqual(EXPECTED);
    expect(checked.stats.broken.total).toBe(EXPECTED.length);
    expect(checked.broken[0]).toMatchObject({ pageTitle: 'Page section-0', sourcePath: 'section-0.md' });

    // Every page's list was read once, and several at once, never more than the bound.
    expect(linkReads.total).toBe(SECTIONS * (PAGES_PER_SECTION + 1));
    expect(linkReads.most).toBeGreaterThan(1);
    expect(linkReads.most).toBeLessThanOrEqual(PARALLEL_READS);
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
