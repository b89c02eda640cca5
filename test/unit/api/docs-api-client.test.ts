import { afterAll, describe, expect, it } from 'vitest';
import { createDocsApiClient } from '../../../src/api/create-docs-api-client.js';
import type { DocsApiClient } from '../../../src/api/docs-api-client.js';
import { VERSION } from '../../../src/package-info.js';
import { type RecordedRequest, sendJson, startCannedServer } from './canned-server.js';
import {
  changeRequest,
  comment,
  linkCheckList,
  member,
  openApiSpec,
  openApiVersion,
  organization,
  reply,
  review,
  revision,
  revisionPage,
  space,
  TOKEN,
} from './fixtures.js';

interface Case {
  call: (client: DocsApiClient) => Promise<unknown>;
  /** `METHOD /v1/path?query` as the service receives it. */
  sent: string;
  body?: unknown;
  status?: number;
  answer?: unknown;
}

const page = (...items: unknown[]) => ({ items });
const cr = { spaceId: 'sp1', changeRequestId: 7 };
const main = { spaceId: 'sp1' };
const done = { revision: 'rev3', result: 'merge' };

const cases: Record<string, Case> = {
  'orgs.list': {
    call: (c) => c.orgs.list({ limit: 5 }),
    sent: 'GET /v1/orgs?limit=5',
    answer: page(organization),
  },
  'orgs.get': { call: (c) => c.orgs.get('org1'), sent: 'GET /v1/orgs/org1', answer: organization },
  'orgs.ping': { call: (c) => c.orgs.ping('org1'), sent: 'POST /v1/orgs/org1/ping', answer: {} },
  'members.list': {
    call: (c) => c.members.list('org1', { role: 'edit', sort: 'lastSeenAt', search: 'ada', order: 'asc' }),
    sent: 'GET /v1/orgs/org1/members?order=asc&role=edit&search=ada&sort=lastSeenAt',
    answer: page(member),
  },
  'members.get': {
    call: (c) => c.members.get('org1', 'u1'),
    sent: 'GET /v1/orgs/org1/members/u1',
    answer: member,
  },
  'members.updateRole': {
    call: (c) => c.members.updateRole('org1', 'u1', null),
    sent: 'PATCH /v1/orgs/org1/members/u1',
    body: { role: null },
    answer: { ...member, role: null },
  },
  'members.delete': {
    call: (c) => c.members.delete('org1', 'u1'),
    sent: 'DELETE /v1/orgs/org1/members/u1',
    status: 204,
  },
  'spaces.create': {
    call: (c) => c.spaces.create('org1', { title: 'Docs' }),
    sent: 'POST /v1/orgs/org1/spaces',
    body: { title: 'Docs' },
    status: 201,
    answer: space(),
  },
  'spaces.get': {
    call: (c) => c.spaces.get('sp1', { shareKey: 'k' }),
    sent: 'GET /v1/spaces/sp1?shareKey=k',
    answer: space(),
  },
  'spaces.patch': {
    call: (c) => c.spaces.patch('sp1', { title: 'New', editMode: 'locked' }),
    sent: 'PATCH /v1/spaces/sp1',
    body: { title: 'New', editMode: 'locked' },
    answer: space(),
  },
  'spaces.delete': { call: (c) => c.spaces.delete('sp1'), sent: 'DELETE /v1/spaces/sp1', status: 205 },
  'spaces.restore': {
    call: (c) => c.spaces.restore('sp1'),
    sent: 'POST /v1/spaces/sp1/restore',
    answer: space(),
  },
  'spaces.duplicate': {
    call: (c) => c.spaces.duplicate('sp1'),
    sent: 'POST /v1/spaces/sp1/duplicate',
    status: 201,
    answer: space('sp2'),
  },
  'spaces.move': {
    call: (c) => c.spaces.move('sp1', { parent: null, position: { after: { type: 'space', space: 'sp0' } } }),
    sent: 'POST /v1/spaces/sp1/move',
    body: { parent: null, position: { after: { type: 'space', space: 'sp0' } } },
    answer: space(),
  },
  'spaces.transfer': {
    call: (c) => c.spaces.transfer('sp1', { organization: 'org2' }),
    sent: 'POST /v1/spaces/sp1/transfer',
    body: { organization: 'org2' },
    answer: space(),
  },
  'spaces.search': {
    call: (c) => c.spaces.search('sp1', 'install guide'),
    sent: 'GET /v1/spaces/sp1/search?query=install+guide',
    answer: page({ id: 'p1', title: 'Install', sections: [{ id: 's', body: 'npm i' }] }),
  },
  'spaces.listLinks': {
    call: (c) => c.spaces.listLinks('sp1', { status: 'broken' }),
    sent: 'GET /v1/spaces/sp1/links?status=broken',
    answer: linkCheckList,
  },
  'content.getRevision': {
    call: (c) => c.content.getRevision(cr, { metadata: false }),
    sent: 'GET /v1/spaces/sp1/change-requests/7/content?metadata=false',
    answer: revision,
  },
  'content.getPages': {
    call: (c) => c.content.getPages(main),
    sent: 'GET /v1/spaces/sp1/content/pages',
    answer: { pages: [revisionPage] },
  },
  'content.getPage': {
    call: (c) => c.content.getPage(main, 'p1', { format: 'markdown' }),
    sent: 'GET /v1/spaces/sp1/content/page/p1?format=markdown',
    answer: revisionPage,
  },
  'content.listFiles': {
    call: (c) => c.content.listFiles(cr),
    sent: 'GET /v1/spaces/sp1/change-requests/7/content/files',
    answer: page({ id: 'f1' }),
  },
  'content.getFile': {
    call: (c) => c.content.getFile(main, 'f1'),
    sent: 'GET /v1/spaces/sp1/content/files/f1',
    answer: { id: 'f1' },
  },
  'content.download': {
    // A file on the service's own origin: sent with the token, the bytes given back as they came.
    call: async (c) =>
      JSON.parse(
        (await c.content.download(`${server.baseUrl}/files/f1?sig=1`, { maxBytes: 1024 })).toString(),
      ),
    sent: 'GET /v1/files/f1?sig=1',
    answer: { id: 'f1' },
  },
  'content.listFileBacklinks': {
    call: (c) => c.content.listFileBacklinks(main, 'f1'),
    sent: 'GET /v1/spaces/sp1/content/files/f1/backlinks',
    answer: page({ kind: 'page', space: 'sp1', page: 'p1' }),
  },
  'content.importContent': {
    call: (c) => c.content.importContent(cr, { url: 'https://docsync.test/a/b.zip?sig=1', source: 'zip' }),
    sent: 'POST /v1/spaces/sp1/change-requests/7/content/import',
    body: { url: 'https://docsync.test/a/b.zip?sig=1', source: 'zip' },
    status: 201,
    answer: { revision: 'rev3', importedResources: 3, totalResources: 4 },
  },
  'content.listPageLinks': {
    call: (c) => c.content.listPageLinks(cr, 'p1', { status: 'broken', limit: 10 }),
    sent: 'GET /v1/spaces/sp1/change-requests/7/content/page/p1/links?status=broken&limit=10',
    answer: linkCheckList,
  },
  'changeRequests.list': {
    call: (c) => c.changeRequests.list('sp1', { status: 'draft', contributor: 'u1' }),
    sent: 'GET /v1/spaces/sp1/change-requests?status=draft&contributor=u1',
    answer: page(changeRequest()),
  },
  'changeRequests.create': {
    call: (c) => c.changeRequests.create('sp1', { subject: 'docs: sync' }),
    sent: 'POST /v1/spaces/sp1/change-requests',
    body: { subject: 'docs: sync' },
    status: 201,
    answer: changeRequest(),
  },
  'changeRequests.get': {
    call: (c) => c.changeRequests.get('sp1', 7),
    sent: 'GET /v1/spaces/sp1/change-requests/7',
    answer: changeRequest(),
  },
  'changeRequests.patch': {
    call: (c) => c.changeRequests.patch('sp1', 'cr1', { status: 'archived' }),
    sent: 'PATCH /v1/spaces/sp1/change-requests/cr1',
    body: { status: 'archived' },
    answer: { ...changeRequest(), status: 'archived' },
  },
  'changeRequests.merge': {
    call: (c) => c.changeRequests.merge('sp1', 'cr1'),
    sent: 'POST /v1/spaces/sp1/change-requests/cr1/merge',
    answer: done,
  },
  'changeRequests.update': {
    call: (c) => c.changeRequests.update('sp1', 'cr1'),
    sent: 'POST /v1/spaces/sp1/change-requests/cr1/update',
    answer: { revision: 'rev4', result: 'update' },
  },
  'changeRequests.getPdf': {
    call: (c) => c.changeRequests.getPdf('sp1', 'cr1', { only: true, page: 'p1' }),
    sent: 'GET /v1/spaces/sp1/change-requests/cr1/pdf?only=true&page=p1',
    answer: { url: 'https://files.example.com/cr1.pdf' },
  },
  'changeRequests.listReviews': {
    call: (c) => c.changeRequests.listReviews('sp1', 'cr1'),
    sent: 'GET /v1/spaces/sp1/change-requests/cr1/reviews',
    answer: page(review),
  },
  'changeRequests.submitReview': {
    call: (c) =>
      c.changeRequests.submitReview('sp1', 'cr1', { status: 'approved', comment: { markdown: 'lgtm' } }),
    sent: 'POST /v1/spaces/sp1/change-requests/cr1/reviews',
    body: { status: 'approved', comment: { markdown: 'lgtm' } },
    status: 201,
    answer: review,
  },
  'comments.list': {
    call: (c) =>
      c.comments.list(main, { status: 'open', authors: ['u1', 'u2'], targetPage: 'p1', order: 'asc' }),
    sent: 'GET /v1/spaces/sp1/comments?order=asc&status=open&targetPage=p1&authors=u1&authors=u2',
    answer: page(comment()),
  },
  'comments.create': {
    call: (c) => c.comments.create(cr, { body: { markdown: 'Broken links: 1' } }),
    sent: 'POST /v1/spaces/sp1/change-requests/7/comments',
    body: { body: { markdown: 'Broken links: 1' } },
    answer: comment(),
  },
  'comments.get': {
    call: (c) => c.comments.get(main, 'c1'),
    sent: 'GET /v1/spaces/sp1/comments/c1',
    answer: comment(),
  },
  'comments.update': {
    call: (c) => c.comments.update(cr, 'c1', { resolved: true }),
    sent: 'PUT /v1/spaces/sp1/change-requests/7/comments/c1',
    body: { resolved: true },
    answer: {
      ...comment(),
      status: 'resolved',
      resolvedAt: '2025-01-03T00:00:00Z',
      resolvedBy: { id: 'u1' },
    },
  },
  'comments.delete': {
    call: (c) => c.comments.delete(main, 'c1'),
    sent: 'DELETE /v1/spaces/sp1/comments/c1',
    status: 205,
  },
  'comments.listReplies': {
    call: (c) => c.comments.listReplies(main, 'c1', { format: 'markdown' }),
    sent: 'GET /v1/spaces/sp1/comments/c1/replies?format=markdown',
    answer: page(reply),
  },
  'comments.createReply': {
    call: (c) => c.comments.createReply(cr, 'c1', { body: { markdown: 'ok' } }, { format: 'markdown' }),
    sent: 'POST /v1/spaces/sp1/change-requests/7/comments/c1/replies?format=markdown',
    body: { body: { markdown: 'ok' } },
    answer: reply,
  },
  'comments.getReply': {
    call: (c) => c.comments.getReply(main, 'c1', 'r1'),
    sent: 'GET /v1/spaces/sp1/comments/c1/replies/r1',
    answer: reply,
  },
  'comments.updateReply': {
    call: (c) => c.comments.updateReply(main, 'c1', 'r1', { addedReactions: ['👍'] }),
    sent: 'PUT /v1/spaces/sp1/comments/c1/replies/r1',
    body: { addedReactions: ['👍'] },
    answer: reply,
  },
  'openapi.list': {
    call: (c) => c.openapi.list('org1'),
    sent: 'GET /v1/orgs/org1/openapi',
    answer: page(openApiSpec()),
  },
  'openapi.create': {
    call: (c) =>
      c.openapi.create('org1', { slug: 'payments', source: { url: 'https://x.test/openapi.yaml' } }),
    sent: 'POST /v1/orgs/org1/openapi',
    body: { slug: 'payments', source: { url: 'https://x.test/openapi.yaml' } },
    status: 201,
    answer: openApiSpec(),
  },
  'openapi.get': {
    call: (c) => c.openapi.get('org1', 'payments'),
    sent: 'GET /v1/orgs/org1/openapi/payments',
    answer: openApiSpec(),
  },
  'openapi.put': {
    call: (c) => c.openapi.put('org1', 'payments', { text: 'openapi: 3.1.0' }),
    sent: 'PUT /v1/orgs/org1/openapi/payments',
    body: { source: { text: 'openapi: 3.1.0' } },
    answer: { ...openApiSpec(), processingState: 'complete', lastProcessErrorCode: 'PARSE_ERROR' },
  },
  'openapi.delete': {
    call: (c) => c.openapi.delete('org1', 'payments'),
    sent: 'DELETE /v1/orgs/org1/openapi/payments',
    status: 205,
  },
  'openapi.listVersions': {
    call: (c) => c.openapi.listVersions('org1', 'payments'),
    sent: 'GET /v1/orgs/org1/openapi/payments/versions',
    answer: page(openApiVersion),
  },
  'openapi.getLatestVersion': {
    call: (c) => c.openapi.getLatestVersion('org1', 'payments'),
    sent: 'GET /v1/orgs/org1/openapi/payments/versions/latest',
    answer: openApiVersion,
  },
  'openapi.getVersion': {
    call: (c) => c.openapi.getVersion('org1', 'payments', 'v1'),
    sent: 'GET /v1/orgs/org1/openapi/payments/versions/v1',
    answer: openApiVersion,
  },
  'openapi.getLatestVersionContent': {
    call: (c) => c.openapi.getLatestVersionContent('org1', 'payments'),
    sent: 'GET /v1/orgs/org1/openapi/payments/versions/latest/content',
    answer: { filesystem: { files: [] }, url: openApiVersion.url },
  },
  'openapi.getVersionContent': {
    call: (c) => c.openapi.getVersionContent('org1', 'payments', 'v1'),
    sent: 'GET /v1/orgs/org1/openapi/payments/versions/v1/content',
    answer: { filesystem: {}, url: openApiVersion.url },
  },
};

const server = await startCannedServer(answer, { shared: true });
const client = createDocsApiClient(
  { baseUrl: server.baseUrl, token: TOKEN, timeout: 2000 },
  { retry: { maxAttempts: 1 } },
);
let current: Case | undefined;

afterAll(() => client.close());

function answer(
  _request: RecordedRequest,
  response: Parameters<Parameters<typeof startCannedServer>[0]>[1],
): void {
  const status = current?.status ?? 200;
  if (current?.answer === undefined) {
    response.writeHead(status);
    response.end();
  } else sendJson(response, status, current.answer);
}

describe('the docs API client', () => {
  it.each(Object.entries(cases))(
    '%s sends the documented request and reads the answer',
    async (_name, testCase) => {
      current = testCase;
      const before = server.requests.length;
      const result = await testCase.call(client);
      const request = server.requests[before];
      expect(`${request?.method} ${request?.url}`).toBe(testCase.sent);
      if (testCase.body === undefined) expect(request?.body).toBe('');
      else expect(JSON.parse(request?.body ?? '')).toEqual(testCase.body);
      if (testCase.answer === undefined) expect(result).toBeUndefined();
      else expect(result).toMatchObject(testCase.answer as object);
    },
  );

  it('covers every method of every resource group', () => {
    const groups = ['orgs', 'members', 'spaces', 'content', 'changeRequests', 'comments', 'openapi'] as const;
    const methods = groups.flatMap((group) =>
      Object.getOwnPropertyNames(Object.getPrototypeOf(client[group]))
        .filter((name) => name !== 'constructor' && !name.endsWith('All'))
        .map((name) => `${group}.${name}`),
    );
    expect(methods.filter((method) => !(method in cases))).toEqual([]);
  });

  it('identifies itself as docsync with its version, and authenticates every request', () => {
    for (const request of server.requests) {
      expect(request.headers['user-agent']).toBe(`docsync/${VERSION}`);
      expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
    }
  });

  it('reads the nested page tree of a revision', async () => {
    current = cases['content.getRevision'];
    const result = await client.content.getRevision(cr);
    expect(result.pages?.[0]?.pages?.[0]?.pages?.[0]?.title).toBe('Grandchild');
  });

  it('walks every list with its ...All variant', async () => {
    current = cases['comments.list'];
    const ids: string[] = [];
    for await (const item of client.comments.listAll(main, { status: 'open' })) ids.push(item.id);
    expect(ids).toEqual(['c1']);
    expect(server.requests.at(-1)?.url).toBe('/v1/spaces/sp1/comments?limit=1000&status=open');
  });
});
