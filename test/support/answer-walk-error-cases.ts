// The refused calls of the walk of every endpoint: each condition the local service can meet (400
// for a bad field or a limit exceeded, 401, 403 for a role too low, 404, 409 for something that
// already exists), on the endpoints where docsync and docs teams meet them.
import { TOKENS, type WalkCase } from './answer-walk-case.js';
import type { WalkWorld } from './answer-walk-world.js';

const space = (w: WalkWorld) => `/spaces/${w.spaceId}`;

/** The next request whose path ends with `pathEnd` gets an injected `status`. */
const injectFault = (status: number, pathEnd: string) => async (w: WalkWorld) => {
  const response = await fetch(`${w.test.origin}/_emulator/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKENS.admin}` },
    body: JSON.stringify({ forced: [{ status, retryAfterSeconds: 1, path: `${pathEnd}$`, times: 1 }] }),
  });
  if (response.status !== 200) throw new Error(`injecting a fault: status ${response.status}`);
};
const cr = (w: WalkWorld) => `/spaces/${w.spaceId}/change-requests/${w.crId}`;

export const ERROR_CASES: readonly WalkCase[] = [
  {
    method: 'PATCH',
    path: '/v1/spaces/{spaceId}',
    url: space,
    body: () => ({ title: 'q'.repeat(51) }),
    status: 400,
    field: 'title',
    what: 'a title past its limit',
  },
  {
    method: 'PATCH',
    path: '/v1/spaces/{spaceId}',
    url: space,
    body: () => ({ visibility: 'everyone' }),
    status: 400,
    field: 'visibility',
    what: 'a value outside the enumeration',
  },
  {
    method: 'POST',
    path: '/v1/spaces/{spaceId}/change-requests',
    url: (w) => `${space(w)}/change-requests`,
    rawBody: '{"subject": "unfinished',
    status: 400,
    what: 'a malformed body',
  },
  {
    method: 'GET',
    path: '/v1/spaces/{spaceId}/change-requests',
    url: (w) => `${space(w)}/change-requests?limit=1001`,
    status: 400,
    field: 'limit',
    what: 'limit past 1000',
  },
  {
    method: 'GET',
    path: '/v1/spaces/{spaceId}/search',
    url: (w) => `${space(w)}/search?query=${'q'.repeat(513)}`,
    status: 400,
    field: 'query',
    what: 'a search query past 512 characters',
  },
  {
    method: 'POST',
    path: '/v1/orgs/{organizationId}/openapi',
    url: (w) => `/orgs/${w.orgId}/openapi`,
    body: () => ({ slug: 'Not A Slug', source: { text: '{}' } }),
    status: 400,
    field: 'slug',
    what: 'a bad slug',
  },
  {
    method: 'PATCH',
    path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}',
    url: cr,
    body: () => ({ status: 'merged' }),
    status: 400,
    field: 'status',
    what: 'a status only merging reaches',
  },
  { method: 'GET', path: '/v1/spaces/{spaceId}', url: space, as: 'none', status: 401, what: 'no token' },
  {
    method: 'GET',
    path: '/v1/orgs',
    url: () => '/orgs',
    as: 'unknown token',
    status: 401,
    what: 'unknown token',
  },
  {
    method: 'PATCH',
    path: '/v1/spaces/{spaceId}',
    url: space,
    body: () => ({ title: 'Mine now' }),
    as: 'reader',
    status: 403,
    what: 'a reader writing',
  },
  {
    method: 'POST',
    path: '/v1/spaces/{spaceId}/comments',
    url: (w) => `${space(w)}/comments`,
    body: () => ({ body: { markdown: 'Hello' } }),
    as: 'reader',
    status: 403,
    what: 'a reader commenting',
  },
  {
    method: 'POST',
    path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge',
    url: (w) => `${cr(w)}/merge`,
    as: 'commenter',
    status: 403,
    what: 'a commenter merging',
  },
  {
    method: 'POST',
    path: '/v1/orgs/{organizationId}/openapi',
    url: (w) => `/orgs/${w.orgId}/openapi`,
    body: () => ({ slug: 'readers-spec', source: { text: '{}' } }),
    as: 'reader',
    status: 403,
    what: 'a reader uploading a spec',
  },
  {
    method: 'GET',
    path: '/v1/spaces/{spaceId}',
    url: () => '/spaces/spc_nothing',
    status: 404,
    what: 'no space',
  },
  {
    method: 'GET',
    path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}',
    url: (w) => `${space(w)}/change-requests/999`,
    status: 404,
    what: 'no change request',
  },
  {
    method: 'GET',
    path: '/v1/spaces/{spaceId}/content/page/{pageId}',
    url: (w) => `${space(w)}/content/page/pg_nothing`,
    status: 404,
    what: 'no page',
  },
  {
    method: 'GET',
    path: '/v1/spaces/{spaceId}/comments/{commentId}',
    url: (w) => `${space(w)}/comments/cmt_nothing`,
    status: 404,
    what: 'no comment',
  },
  {
    method: 'GET',
    path: '/v1/orgs/{organizationId}/openapi/{specSlug}',
    url: (w) => `/orgs/${w.orgId}/openapi/no-such-spec`,
    status: 404,
    what: 'no spec',
  },
  {
    method: 'GET',
    path: '/v1/orgs/{organizationId}',
    url: () => '/orgs/org_nothing',
    status: 404,
    what: 'another organization',
  },
  {
    method: 'GET',
    path: '/v1/nothing-here',
    url: () => '/nothing-here',
    status: 404,
    what: 'no such endpoint',
  },
  {
    method: 'POST',
    path: '/v1/orgs/{organizationId}/openapi',
    url: (w) => `/orgs/${w.orgId}/openapi`,
    body: (w) => ({ slug: w.specSlug, source: { text: '{}' } }),
    status: 409,
    what: 'a slug already taken',
  },
  {
    method: 'GET',
    path: '/v1/spaces/{spaceId}/change-requests',
    url: (w) => `${space(w)}/change-requests`,
    before: injectFault(429, '/change-requests'),
    status: 429,
    what: 'an injected rate limit',
  },
  {
    method: 'GET',
    path: '/v1/spaces/{spaceId}',
    url: space,
    before: injectFault(503, `/spaces/[^/]+`),
    status: 503,
    what: 'an injected outage',
  },
];
