// What the walk of every endpoint (answers-match-document.test.ts) needs before it starts: a space
// with imported content (documents, a group, a link page, an entry without a file, an image, links
// that work and one that is broken), a change request with content of its own and a second one to
// merge, comments and replies in both kinds of thread, a review, an OpenAPI spec with two versions,
// and spare records that the walk's deletions may consume. All made through the API.
import { pino } from 'pino';
import { createEmulator } from '../../src/emulator/create-emulator.js';
import { buildOrgRecords, type OrgRecords } from './answer-walk-org-world.js';
import { buildSiteRecords, type SiteRecords } from './answer-walk-site-world.js';
import { closeAfter } from './close-after.js';
import { type DocsFolder, docsZip, LOGO_PNG } from './docs-archives.js';
import { startFileServer } from './file-server.js';
import { bodyOf, type ServiceRequest, serviceAs } from './service-request.js';
import { TEST_MEMBERS, type TestEmulator } from './start-test-emulator.js';
import { waitFor } from './wait-for.js';

export const WALK_DOCS: DocsFolder = {
  'README.md':
    '# Welcome\n\nThe quokka guide. Start with [installing](guides/install.md), see [the old page](missing.md).\n\n![Logo](images/logo.png)\n',
  'SUMMARY.md': [
    '# Summary',
    '',
    '* [Welcome](README.md)',
    '* [Guides](guides/README.md)',
    '  * [Installing](guides/install.md)',
    '',
    '## Reference',
    '',
    '* [FAQ](faq.md)',
    '* [Status page](https://status.example.com)',
    '* Overview',
    '',
  ].join('\n'),
  'guides/README.md': '# Guides\n\nRead [install](install.md).\n',
  'guides/install.md': '# Install\n\nRun the installer.\n\n## Quokka mode\n\n![Logo](../images/logo.png)\n',
  'faq.md': '# FAQ\n\nDo quokkas read docs? Only [the good ones](https://example.com/quokkas).\n',
  'images/logo.png': LOGO_PNG,
};

const CHANGED_DOCS: DocsFolder = {
  ...WALK_DOCS,
  'faq.md': '# FAQ\n\nDo quokkas read docs? Yes, and [they install](guides/install.md) too.\n',
};

export const PETS_V1 = JSON.stringify({ openapi: '3.1.0', info: { title: 'Pets', version: '1' }, paths: {} });
export const PETS_V2 = 'openapi: 3.1.0\ninfo:\n  title: Pets\n  version: "2"\npaths: {}\n';

/** The member that the walk changes, makes an SSO member and removes. */
export const SPARE_MEMBER = { name: 'Sam Spare', token: 'spare-token', role: 'read' } as const;

interface Page {
  id: string;
  title: string;
  type: string;
  pages?: Page[];
}

export interface WalkWorld {
  test: TestEmulator;
  orgId: string;
  /** A second organization, where the admin is admin too: spaces and collections move there. */
  partnerOrgId: string;
  records: OrgRecords;
  sites: SiteRecords;
  spareUserId: string;
  readerUserId: string;
  commenterUserId: string;
  spaceId: string;
  otherSpaceId: string;
  spareSpaceId: string;
  /** The change request with content of its own; `mergeCrId` is the one the walk merges. */
  crId: string;
  crNumber: number;
  mergeCrId: string;
  pageId: string;
  groupId: string;
  linkPageId: string;
  crPageId: string;
  fileId: string;
  crFileId: string;
  commentId: string;
  replyId: string;
  spareCommentId: string;
  crCommentId: string;
  crReplyId: string;
  crSpareCommentId: string;
  reviewId: string;
  specSlug: string;
  spareSpecSlug: string;
  versionId: string;
  /** An address serving WALK_DOCS as a zip, for imports. */
  zipUrl: string;
}

const flatten = (pages: readonly Page[]): Page[] =>
  pages.flatMap((page) => [page, ...flatten(page.pages ?? [])]);

export async function buildWalkWorld(): Promise<WalkWorld> {
  const emulator = await createEmulator({
    members: [...TEST_MEMBERS, SPARE_MEMBER],
    organizations: [{ title: 'Partner docs', members: [{ name: TEST_MEMBERS[0].name, role: 'admin' }] }],
    log: pino({ level: 'silent' }),
  });
  closeAfter(() => emulator.close());
  const origin = await emulator.listen('127.0.0.1', 0);
  const test: TestEmulator = {
    origin,
    baseUrl: `${origin}/v1`,
    orgId: emulator.orgId,
    emulator,
    tokens: {
      admin: 'admin-token',
      reviewer: 'reviewer-token',
      commenter: 'commenter-token',
      reader: 'reader-token',
    },
  };
  const files = await startFileServer();
  const zipUrl = files.put('/walk.zip', await docsZip(WALK_DOCS));
  const changedUrl = files.put('/changed.zip', await docsZip(CHANGED_DOCS));
  const admin = serviceAs(test, test.tokens.admin);
  const commenter = serviceAs(test, test.tokens.commenter);
  const reviewer = serviceAs(test, test.tokens.reviewer);
  const orgId = test.orgId;

  const newSpace = async (title: string) =>
    (await bodyOf(admin<{ id: string }>(`/orgs/${orgId}/spaces`, 'POST', { title }), 201)).id;
  const spaceId = await newSpace('Quokka guide');
  const otherSpaceId = await newSpace('Other');
  const spareSpaceId = await newSpace('Spare');
  await bodyOf(admin(`/spaces/${spaceId}/content/import`, 'POST', { url: zipUrl, source: 'zip' }), 201);
  const pages = flatten((await bodyOf(admin<{ pages: Page[] }>(`/spaces/${spaceId}/content/pages`))).pages);
  const pageOf = (title: string) => pages.find((page) => page.title === title)?.id ?? `missing ${title}`;
  const { items: spaceFiles } = await bodyOf(
    admin<{ items: Array<{ id: string }> }>(`/spaces/${spaceId}/content/files`),
  );

  const newCr = (subject: string) =>
    bodyOf(
      admin<{ id: string; number: number }>(`/spaces/${spaceId}/change-requests`, 'POST', { subject }),
      201,
    );
  const cr = await newCr('Friendlier FAQ');
  const crPath = `/spaces/${spaceId}/change-requests/${cr.id}`;
  await bodyOf(admin(`${crPath}/content/import`, 'POST', { url: changedUrl, source: 'zip' }), 201);
  const crPages = flatten((await bodyOf(admin<{ pages: Page[] }>(`${crPath}/content/pages`))).pages);
  const { items: crFiles } = await bodyOf(admin<{ items: Array<{ id: string }> }>(`${crPath}/content/files`));
  const mergeCr = await newCr('To merge');
  await bodyOf(
    admin(`/spaces/${spaceId}/change-requests/${mergeCr.id}/content/import`, 'POST', {
      url: changedUrl,
      source: 'zip',
    }),
    201,
  );

  const thread = async (prefix: string, pageId: string) => {
    const comment = await bodyOf(
      commenter<{ id: string }>(`${prefix}/comments`, 'POST', {
        body: { markdown: 'Is *quokka mode* safe?' },
        page: pageId,
      }),
    );
    await bodyOf(admin(`${prefix}/comments/${comment.id}`, 'PUT', { addedReactions: ['👍'] }));
    const reply = await bodyOf(
      admin<{ id: string }>(`${prefix}/comments/${comment.id}/replies`, 'POST', {
        body: { markdown: 'Yes, quokkas are friendly.' },
      }),
    );
    const spare = await bodyOf(
      commenter<{ id: string }>(`${prefix}/comments`, 'POST', { body: { markdown: 'Delete me' } }),
    );
    return { commentId: comment.id, replyId: reply.id, spareCommentId: spare.id };
  };
  const spaceThread = await thread(`/spaces/${spaceId}`, pageOf('Installing'));
  const crThread = await thread(crPath, crPages.find((page) => page.title === 'FAQ')?.id ?? '');

  const review = await bodyOf(
    reviewer<{ id: string }>(`${crPath}/reviews`, 'POST', {
      status: 'changes-requested',
      comment: { markdown: 'Please say more about quokkas.' },
    }),
    201,
  );

  const versionId = await specWithVersions(admin, orgId, 'pets');
  await specWithVersions(admin, orgId, 'spare-pets');

  const userIdOf = (name: string) =>
    Object.values(emulator.state.users).find((user) => user.displayName === name)?.id ?? `missing ${name}`;
  const records = await buildOrgRecords({ admin, orgId, spaceId, readerUserId: userIdOf('Rea Reader') });
  return {
    test,
    orgId,
    partnerOrgId: emulator.organizationIds[0] ?? 'missing partner organization',
    records,
    sites: await buildSiteRecords(admin, orgId),
    spareUserId: userIdOf(SPARE_MEMBER.name),
    readerUserId: userIdOf('Rea Reader'),
    commenterUserId: userIdOf('Carl Commenter'),
    spaceId,
    otherSpaceId,
    spareSpaceId,
    crId: cr.id,
    crNumber: cr.number,
    mergeCrId: mergeCr.id,
    pageId: pageOf('Installing'),
    groupId: pages.find((page) => page.type === 'group')?.id ?? 'missing group',
    linkPageId: pages.find((page) => page.type === 'link')?.id ?? 'missing link page',
    crPageId: crPages.find((page) => page.title === 'FAQ')?.id ?? 'missing FAQ',
    fileId: spaceFiles[0]?.id ?? 'missing file',
    crFileId: crFiles[0]?.id ?? 'missing file',
    commentId: spaceThread.commentId,
    replyId: spaceThread.replyId,
    spareCommentId: spaceThread.spareCommentId,
    crCommentId: crThread.commentId,
    crReplyId: crThread.replyId,
    crSpareCommentId: crThread.spareCommentId,
    reviewId: review.id,
    specSlug: 'pets',
    spareSpecSlug: 'spare-pets',
    versionId,
    zipUrl,
  };
}

/** A spec with two versions (JSON, then YAML), once both are processed; answers the first version. */
async function specWithVersions(admin: ServiceRequest, orgId: string, slug: string): Promise<string> {
  const spec = `/orgs/${orgId}/openapi/${slug}`;
  const processed = (count: number) =>
    waitFor(async () => {
      const { items } = await bodyOf(admin<{ items: Array<{ id: string }> }>(`${spec}/versions`));
      return items.length === count ? items : undefined;
    }, `version ${count} of ${slug}`);
  await bodyOf(admin(`/orgs/${orgId}/openapi`, 'POST', { slug, source: { text: PETS_V1 } }), 201);
  const [first] = await processed(1);
  await bodyOf(admin(spec, 'PUT', { source: { text: PETS_V2 } }));
  await processed(2);
  await waitFor(
    async () =>
      (await bodyOf(admin<{ processingState: string }>(spec))).processingState === 'complete' || undefined,
    `${slug} processed`,
  );
  return first?.id ?? 'missing version';
}
