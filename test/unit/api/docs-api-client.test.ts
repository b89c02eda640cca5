import { afterAll, describe, expect, it } from 'vitest';
import { createDocsApiClient } from '../../../src/api/create-docs-api-client.js';
import type { DocsApiClient } from '../../../src/api/docs-api-client.js';
import { VERSION } from '../../../src/package-info.js';
import { type RecordedRequest, sendJson, startCannedServer } from './canned-server.js';
import {
  changeRequest,
  comment,
  linkCheckList,
  openApiSpec,
  organization,
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
  answer: unknown;
}

/** A `...All` method: it walks the list that `list` (a key of `cases`) reads a page of. */
interface Walk {
  list: string;
  walk: (client: DocsApiClient) => AsyncGenerator<unknown>;
  /** The request of its first page: the largest page size, then the list's filters. */
  sent: string;
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
  'spaces.update': {
    call: (c) => c.spaces.update('sp1', { title: 'Handbook 2.0' }),
    sent: 'PATCH /v1/spaces/sp1',
    body: { title: 'Handbook 2.0' },
    answer: space(),
  },
  'spaces.move': {
    call: (c) => c.spaces.move('sp1', 'col1'),
    sent: 'POST /v1/spaces/sp1/move',
    body: { parent: 'col1' },
    answer: space(),
  },
  'spaces.delete': {
    call: (c) => c.spaces.delete('sp1'),
    sent: 'DELETE /v1/spaces/sp1',
    status: 205,
    answer: undefined,
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
  'content.download': {
    // A file on the service's own origin: sent with the token, the bytes given back as they came.
    call: async (c) =>
      JSON.parse(
        (await c.content.download(`${server.baseUrl}/files/f1?sig=1`, { maxBytes: 1024 })).toString(),
      ),
    sent: 'GET /v1/files/f1?sig=1',
    answer: { id: 'f1' },
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
    sent: 'GET /v1/spaces/sp1/change-requests/7/content/page/p1/links?limit=10&status=broken',
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
  'changeRequests.listLinks': {
    call: (c) => c.changeRequests.listLinks('sp1', 'cr1', { status: 'broken', limit: 1000 }),
    sent: 'GET /v1/spaces/sp1/change-requests/cr1/links?limit=1000&status=broken',
    answer: linkCheckList,
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
  'openapi.getVersion': {
    call: (c) => c.openapi.getVersion('org1', 'payments', 'v1'),
    sent: 'GET /v1/orgs/org1/openapi/payments/versions/v1',
    answer: {
      object: 'openapi-spec-version',
      id: 'v1',
      createdAt: '2025-01-02T03:04:05.000Z',
      url: 'https://files.test/v1.yaml',
      urls: { location: 'https://api.test/v1/orgs/org1/openapi/payments/versions/v1' },
    },
  },
  'openapi.getVersionContent': {
    call: (c) => c.openapi.getVersionContent('org1', 'payments', 'v1'),
    sent: 'GET /v1/orgs/org1/openapi/payments/versions/v1/content',
    answer: { filesystem: { openapi: '3.1.0', paths: {} }, url: 'https://files.test/v1.yaml' },
  },
};

const walks: Record<string, Walk> = {
  'content.listPageLinksAll': {
    list: 'content.listPageLinks',
    walk: (c) => c.content.listPageLinksAll(cr, 'p1', { status: 'broken' }),
    sent: 'GET /v1/spaces/sp1/change-requests/7/content/page/p1/links?limit=1000&status=broken',
  },
  'changeRequests.listAll': {
    list: 'changeRequests.list',
    walk: (c) => c.changeRequests.listAll('sp1', { status: 'draft' }),
    sent: 'GET /v1/spaces/sp1/change-requests?limit=1000&status=draft',
  },
  'changeRequests.listReviewsAll': {
    list: 'changeRequests.listReviews',
    walk: (c) => c.changeRequests.listReviewsAll('sp1', 'cr1'),
    sent: 'GET /v1/spaces/sp1/change-requests/cr1/reviews?limit=1000',
  },
  'comments.listAll': {
    list: 'comments.list',
    walk: (c) => c.comments.listAll(main, { status: 'open' }),
    sent: 'GET /v1/spaces/sp1/comments?limit=1000&status=open',
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
  // A deletion's answer (205) has no body.
  if (current?.answer === undefined) response.writeHead(current?.status ?? 204).end();
  else sendJson(response, current.status ?? 200, current.answer);
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
    const groups = ['orgs', 'spaces', 'content', 'changeRequests', 'comments', 'openapi'] as const;
    const methods = groups.flatMap((group) =>
      Object.getOwnPropertyNames(Object.getPrototypeOf(client[group]))
        .filter((name) => name !== 'constructor')
        .map((name) => `${group}.${name}`),
    );
    expect(methods.filter((method) => !(method in cases) && !(method in walks))).toEqual([]);
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

  it.each(Object.entries(walks))('%s reads the whole list, 1000 at a time', async (_name, testCase) => {
    const list = cases[testCase.list];
    if (list === undefined) throw new Error(`no case ${testCase.list}`);
    current = list;
    const items: unknown[] = [];
    for await (const item of testCase.walk(client)) items.push(item);
    expect(items).toMatchObject((list.answer as { items: unknown[] }).items);
    expect(`GET ${server.requests.at(-1)?.url}`).toBe(testCase.sent);
  });
});
