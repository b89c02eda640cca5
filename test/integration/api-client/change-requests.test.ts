// docsync's client driving change requests on the emulator over HTTP: numbering, listing filters,
// status moves, falling behind the main content and catching up, reviews and merge.
import { describe, expect, it } from 'vitest';
import type { ContentTarget } from '../../../src/api/call-options.js';
import type { ChangeRequestPatch } from '../../../src/api/change-requests-api.js';
import type { RevisionPage } from '../../../src/api/schemas/revision-page-schema.js';
import { userIdOf } from '../../../src/emulator/create-emulator.js';
import { expectApiStatus } from '../../support/api-error-of.js';
import { type DocsFolder, docsZip, SAMPLE_DOCS } from '../../support/docs-archives.js';
import { startFileServer } from '../../support/file-server.js';
import { callApi, startTestEmulator } from '../../support/start-test-emulator.js';
import { testApiClient } from '../../support/test-api-client.js';

const ADMIN = userIdOf('Admin');
const REVIEWER = userIdOf('Rita Reviewer');

/** The sample folder without its FAQ page, nor the SUMMARY line listing it. */
const { 'faq.md': _faq, ...SAMPLE_WITHOUT_FAQ_PAGES } = SAMPLE_DOCS;
const SAMPLE_WITHOUT_FAQ: DocsFolder = {
  ...SAMPLE_WITHOUT_FAQ_PAGES,
  'SUMMARY.md': String(SAMPLE_DOCS['SUMMARY.md']).replace('* [FAQ](faq.md)\n', ''),
};

function markdownByTitle(pages: readonly RevisionPage[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (list: readonly RevisionPage[]) => {
    for (const page of list) {
      out[page.title ?? '?'] = page.markdown ?? '';
      visit(page.pages ?? []);
    }
  };
  visit(pages ?? []);
  return out;
}

describe('change requests through the client', async () => {
  const test = await startTestEmulator();
  const files = await startFileServer();
  const { client, attempts } = testApiClient(test);
  const reviewer = testApiClient(test, test.tokens.reviewer).client;
  const commenter = testApiClient(test, test.tokens.commenter).client;
  const reader = testApiClient(test, test.tokens.reader).client;
  let served = 0;

  function markdownUrl(markdown: string): string {
    served += 1;
    return files.put(`/page-${served}.md`, markdown, 'text/markdown');
  }
  /** Imports a docs folder: `base` (the sample by default) with `changes` applied. */
  async function importFolder(target: ContentTarget, changes: DocsFolder = {}, base = SAMPLE_DOCS) {
    served += 1;
    const url = files.put(`/folder-${served}.zip`, await docsZip({ ...base, ...changes }));
    return client.content.importContent(target, { url, source: 'zip' });
  }
  async function spaceWithSample(title = 'Docs') {
    const space = await client.spaces.create(test.orgId, { title });
    await importFolder({ spaceId: space.id });
    return client.spaces.get(space.id);
  }
  /** The sample in a new space, and an open change request with a new FAQ answer and a changelog page. */
  async function changeRequestWithEdits(
    title: string,
    edits: { subject: string; faq: string; changelog: string },
  ) {
    const space = await spaceWithSample(title);
    const cr = await client.changeRequests.create(space.id, { subject: edits.subject });
    const target = { spaceId: space.id, changeRequestId: cr.id };
    await importFolder(target, { 'faq.md': edits.faq });
    await client.content.importContent(target, { url: markdownUrl(edits.changelog), source: 'markdown' });
    return { space, cr, target };
  }
  async function counters(spaceId: string) {
    const { changeRequests, changeRequestsOpen, changeRequestsDraft } = await client.spaces.get(spaceId);
    return { total: changeRequests, open: changeRequestsOpen, draft: changeRequestsDraft };
  }
  async function contentOf(target: ContentTarget) {
    return markdownByTitle((await client.content.getPages(target)).pages);
  }

  it('numbers change requests per space from 1 and reads them by id or by number', async () => {
    const first = await client.spaces.create(test.orgId, { title: 'First' });
    const second = await client.spaces.create(test.orgId, { title: 'Second' });
    const inFirst = [];
    for (const subject of ['One', 'Two', 'Three']) {
      inFirst.push(await client.changeRequests.create(first.id, { subject }));
      expect(attempts.at(-1)?.status).toBe(201);
    }
    const inSecond = await client.changeRequests.create(second.id);
    expect(inFirst.map((cr) => cr.number)).toEqual([1, 2, 3]);
    expect(inSecond.number).toBe(1);
    expect(inFirst[1]).toMatchObject({
      object: 'change-request',
      status: 'open',
      subject: 'Two',
      outdated: false,
      revision: first.revision,
      revisionInitial: first.revision,
      createdBy: { id: ADMIN },
    });
    const byId = await client.changeRequests.get(first.id, inFirst[1]?.id ?? '');
    expect(await client.changeRequests.get(first.id, 2)).toEqual(byId);
    expect(byId).toEqual(inFirst[1]);
    // A change request is found only in its own space.
    await expectApiStatus(client.changeRequests.get(second.id, inFirst[2]?.id ?? ''), 404);
    await expectApiStatus(client.changeRequests.get(second.id, 2), 404);
    await expectApiStatus(commenter.changeRequests.create(first.id), 403);
  });

  it('lists open ones by default, newest first, and filters by status and contributor', async () => {
    const space = await spaceWithSample('Lists');
    const imported = await client.changeRequests.create(space.id, { subject: 'Imported' });
    const reviewed = await client.changeRequests.create(space.id, { subject: 'Reviewer edits' });
    const drafted = await client.changeRequests.create(space.id, { subject: 'Draft' });
    await importFolder(
      { spaceId: space.id, changeRequestId: imported.id },
      { 'faq.md': '# FAQ\n\nAdmin.\n' },
    );
    await reviewer.content.importContent(
      { spaceId: space.id, changeRequestId: reviewed.number },
      { url: markdownUrl('# Reviewer page\n'), source: 'markdown' },
    );
    await client.changeRequests.patch(space.id, drafted.id, { status: 'draft' });

    const ids = (page: { items: Array<{ id: string }> }) => page.items.map((cr) => cr.id);
    expect(ids(await reader.changeRequests.list(space.id))).toEqual([reviewed.id, imported.id]);
    expect(ids(await reader.changeRequests.list(space.id, { status: 'draft' }))).toEqual([drafted.id]);
    expect(ids(await reader.changeRequests.list(space.id, { status: 'merged' }))).toEqual([]);
    expect(ids(await reader.changeRequests.list(space.id, { contributor: ADMIN }))).toEqual([imported.id]);
    expect(ids(await reader.changeRequests.list(space.id, { contributor: REVIEWER }))).toEqual([reviewed.id]);
    expect(ids(await reader.changeRequests.list(space.id, { status: 'draft', contributor: ADMIN }))).toEqual(
      [],
    );
    expect(await counters(space.id)).toEqual({ total: 3, open: 2, draft: 1 });
  });

  it('patches the subject (up to 100 characters) and moves status open, draft, archived; never to merged', async () => {
    const space = await client.spaces.create(test.orgId, { title: 'Statuses' });
    const cr = await client.changeRequests.create(space.id, { subject: 'Start' });
    const subject = 's'.repeat(100);
    expect((await client.changeRequests.patch(space.id, cr.number, { subject })).subject).toBe(subject);
    const tooLong = await expectApiStatus(
      client.changeRequests.patch(space.id, cr.id, { subject: `${subject}!` }),
      400,
    );
    expect(tooLong.serviceMessage).toMatch(/subject/);
    expect((await client.changeRequests.get(space.id, cr.id)).subject).toBe(subject);

    const moves = [
      ['draft', { total: 1, open: 0, draft: 1 }],
      ['open', { total: 1, open: 1, draft: 0 }],
      ['archived', { total: 1, open: 0, draft: 0 }],
      ['draft', { total: 1, open: 0, draft: 1 }],
      ['archived', { total: 1, open: 0, draft: 0 }],
      ['open', { total: 1, open: 1, draft: 0 }],
    ] as const;
    for (const [status, expected] of moves) {
      expect((await client.changeRequests.patch(space.id, cr.id, { status })).status).toBe(status);
      expect(await counters(space.id)).toEqual(expected);
    }
    // Merging is `merge()`: the client refuses a PATCH to `merged` before sending it, and the
    // service would refuse it too.
    const before = attempts.length;
    const wrong = { status: 'merged' } as unknown as ChangeRequestPatch;
    await expect(client.changeRequests.patch(space.id, cr.id, wrong)).rejects.toThrow(TypeError);
    expect(attempts.length).toBe(before);
    const merged = await callApi<{ error: { message: string } }>(
      `${test.baseUrl}/spaces/${space.id}/change-requests/${cr.id}`,
      test.tokens.admin,
      'PATCH',
      { status: 'merged' },
    );
    expect(merged.status).toBe(400);
    expect(JSON.stringify(merged.body)).toMatch(/merge/);
    expect((await client.changeRequests.get(space.id, cr.id)).status).toBe('open');
    await expectApiStatus(reader.changeRequests.patch(space.id, cr.id, { subject: 'Mine' }), 403);
  });

  it('becomes outdated when main moves on; update pulls main in and keeps its own edits', async () => {
    const { space, cr, target } = await changeRequestWithEdits('Outdated', {
      subject: 'FAQ answers',
      faq: '# FAQ\n\nChange request answer.\n',
      changelog: '# Changelog\n\nv2\n',
    });
    expect((await client.changeRequests.get(space.id, cr.id)).outdated).toBe(false);

    const main = await importFolder(
      { spaceId: space.id },
      { 'guides/configure.md': '# Configure\n\nMain edit.\n' },
    );
    const behind = await client.changeRequests.get(space.id, cr.id);
    expect(behind.outdated).toBe(true);
    expect(behind.revisionMergedAncestor).toBeUndefined();

    const updated = await client.changeRequests.update(space.id, cr.id);
    expect(updated).toMatchObject({ result: 'update' });
    const current = await client.changeRequests.get(space.id, cr.id);
    expect(current).toMatchObject({
      outdated: false,
      revision: updated.revision,
      revisionMergedAncestor: main.revision,
      revisionInitial: space.revision,
      status: 'open',
    });
    const content = await contentOf(target);
    expect(content.FAQ).toBe('# FAQ\n\nChange request answer.\n');
    expect(content.Configure).toBe('# Configure\n\nMain edit.\n');
    expect(content.Changelog).toBe('# Changelog\n\nv2\n');
    // The main content did not change by updating a change request.
    expect((await client.spaces.get(space.id)).revision).toBe(main.revision);
    expect((await contentOf({ spaceId: space.id })).FAQ).toBe(SAMPLE_DOCS['faq.md']);
    // Nothing to pull: the same revision again.
    expect((await client.changeRequests.update(space.id, cr.id)).revision).toBe(updated.revision);
    await expectApiStatus(commenter.changeRequests.update(space.id, cr.id), 403);
  });

  it("merges: status merged, the space's revision is revisionMerged and holds the edits; once only", async () => {
    const { space, cr } = await changeRequestWithEdits('Merges', {
      subject: 'Ship it',
      faq: '# FAQ\n\nMerged answer.\n',
      changelog: '# Changelog\n\nv3\n',
    });
    // Main moves on too, and the change request is merged without an update first.
    await client.content.importContent(
      { spaceId: space.id },
      { url: markdownUrl('# Roadmap\n\nLater.\n'), source: 'markdown' },
    );
    expect(await counters(space.id)).toEqual({ total: 1, open: 1, draft: 0 });

    const merged = await reviewer.changeRequests.merge(space.id, cr.number);
    expect(merged).toMatchObject({ result: 'merge', revision: expect.any(String) });
    const after = await client.changeRequests.get(space.id, cr.id);
    expect(after).toMatchObject({ status: 'merged', revisionMerged: merged.revision, outdated: false });
    const main = await client.spaces.get(space.id);
    expect(main.revision).toBe(merged.revision);
    expect(await counters(space.id)).toEqual({ total: 1, open: 0, draft: 0 });
    const content = await contentOf({ spaceId: space.id });
    expect(content.FAQ).toBe('# FAQ\n\nMerged answer.\n');
    expect(content.Changelog).toBe('# Changelog\n\nv3\n');
    expect(content.Roadmap).toBe('# Roadmap\n\nLater.\n');
    // The change request's new page stays where it put it, after FAQ; main's follows.
    expect(Object.keys(content)).toEqual([
      'Welcome',
      'Guides',
      'Installing',
      'Configure',
      'FAQ',
      'Changelog',
      'Roadmap',
    ]);

    expect((await client.changeRequests.list(space.id, { status: 'merged' })).items.map((c) => c.id)).toEqual(
      [cr.id],
    );
    await expectApiStatus(reviewer.changeRequests.merge(space.id, cr.id), 400);
    await expectApiStatus(client.changeRequests.update(space.id, cr.id), 400);
    await expectApiStatus(client.changeRequests.patch(space.id, cr.id, { status: 'open' }), 400);
    await expectApiStatus(client.changeRequests.patch(space.id, cr.id, { subject: 'Rewritten' }), 400);
    expect((await client.spaces.get(space.id)).revision).toBe(merged.revision);
  });

  it('keeps a page the change request edited when main removed it meanwhile (its edit wins)', async () => {
    const space = await spaceWithSample('Conflicts');
    const cr = await client.changeRequests.create(space.id, { subject: 'Better FAQ and logo' });
    const target = { spaceId: space.id, changeRequestId: cr.id };
    const newLogo = Buffer.from('not really a png, but new bytes');
    await importFolder(target, { 'faq.md': '# FAQ\n\nRewritten answers.\n', 'images/logo.png': newLogo });
    // Main drops the FAQ page and the logo, and edits Configure.
    const { 'images/logo.png': _logo, ...withoutLogo } = SAMPLE_WITHOUT_FAQ;
    await importFolder(
      { spaceId: space.id },
      { 'guides/configure.md': '# Configure\n\nMain edit.\n' },
      withoutLogo,
    );
    expect((await contentOf({ spaceId: space.id })).FAQ).toBeUndefined();

    await client.changeRequests.update(space.id, cr.id);
    const updated = await contentOf(target);
    expect(updated.FAQ).toBe('# FAQ\n\nRewritten answers.\n');
    expect(updated.Configure).toBe('# Configure\n\nMain edit.\n');
    const logo = (await client.content.getRevision(target)).files?.find((file) => file.name === 'logo.png');
    expect(logo?.size).toBe(newLogo.length);

    await reviewer.changeRequests.merge(space.id, cr.id);
    expect((await contentOf({ spaceId: space.id })).FAQ).toBe('# FAQ\n\nRewritten answers.\n');
    const files = (await client.content.getRevision({ spaceId: space.id })).files ?? [];
    expect(files.map((file) => file.name)).toEqual(['logo.png']);
  });

  it('lets main remove a page the change request did not touch', async () => {
    const space = await spaceWithSample('Removals');
    const cr = await client.changeRequests.create(space.id, { subject: 'Only Configure' });
    const target = { spaceId: space.id, changeRequestId: cr.id };
    await importFolder(target, { 'guides/configure.md': '# Configure\n\nChange request edit.\n' });
    await importFolder({ spaceId: space.id }, {}, SAMPLE_WITHOUT_FAQ);
    await reviewer.changeRequests.merge(space.id, cr.id);
    const merged = await contentOf({ spaceId: space.id });
    expect(merged.FAQ).toBeUndefined();
    expect(merged.Configure).toBe('# Configure\n\nChange request edit.\n');
  });

  it('refuses to merge an archived change request', async () => {
    const space = await spaceWithSample('Archived');
    const cr = await client.changeRequests.create(space.id, { subject: 'Abandoned' });
    await importFolder({ spaceId: space.id, changeRequestId: cr.id }, { 'faq.md': '# FAQ\n\nNo.\n' });
    await client.changeRequests.patch(space.id, cr.id, { status: 'archived' });
    await expectApiStatus(client.changeRequests.merge(space.id, cr.id), 400);
    expect((await client.spaces.get(space.id)).revision).toBe(space.revision);
  });

  it('reviews the current revision; a new import makes the review outdated; merging needs the review role', async () => {
    const space = await spaceWithSample('Reviews');
    const cr = await client.changeRequests.create(space.id, { subject: 'Reviewed' });
    const target = { spaceId: space.id, changeRequestId: cr.id };
    const first = await importFolder(target, { 'faq.md': '# FAQ\n\nFirst try.\n' });

    const review = await reviewer.changeRequests.submitReview(space.id, cr.id, { status: 'approved' });
    expect(review).toMatchObject({
      object: 'change-request-review',
      status: 'approved',
      revision: first.revision,
      outdated: false,
      reviewer: { id: REVIEWER },
    });
    await expectApiStatus(
      commenter.changeRequests.submitReview(space.id, cr.id, { status: 'approved' }),
      403,
    );

    const second = await importFolder(target, { 'faq.md': '# FAQ\n\nSecond try.\n' });
    const reviews = (await reader.changeRequests.listReviews(space.id, cr.id)).items;
    expect(reviews).toEqual([
      expect.objectContaining({ id: review.id, revision: first.revision, outdated: true }),
    ]);
    const again = await reviewer.changeRequests.submitReview(space.id, cr.number, { status: 'approved' });
    expect(again).toMatchObject({ revision: second.revision, outdated: false });
    const all: string[] = [];
    for await (const item of reader.changeRequests.listReviewsAll(space.id, cr.id)) all.push(item.id);
    expect(all).toEqual([review.id, again.id]);

    await expectApiStatus(commenter.changeRequests.merge(space.id, cr.id), 403);
    await expectApiStatus(reader.changeRequests.merge(space.id, cr.id), 403);
    expect((await client.changeRequests.get(space.id, cr.id)).status).toBe('open');
    await reviewer.changeRequests.merge(space.id, cr.id);
    expect((await contentOf({ spaceId: space.id })).FAQ).toBe('# FAQ\n\nSecond try.\n');
    await expectApiStatus(reviewer.changeRequests.submitReview(space.id, cr.id, { status: 'approved' }), 400);
  });
});
