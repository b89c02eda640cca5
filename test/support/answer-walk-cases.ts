// The successful calls of the walk of every endpoint, in the order they run: reads and writes
// first, then the calls that consume records (merge, deletions), each on a record of its own.
import type { WalkCase } from './answer-walk-case.js';
import { ORG_RECORD_CASES } from './answer-walk-org-cases.js';
import { SITE_CASES } from './answer-walk-site-cases.js';
import { PETS_V2, type WalkWorld } from './answer-walk-world.js';

const org = (w: WalkWorld) => `/orgs/${w.orgId}`;
const space = (w: WalkWorld) => `/spaces/${w.spaceId}`;
const cr = (w: WalkWorld) => `/spaces/${w.spaceId}/change-requests/${w.crId}`;
const spec = (w: WalkWorld) => `/orgs/${w.orgId}/openapi/${w.specSlug}`;

const ORGS: WalkCase[] = [
  { method: 'GET', path: '/v1/orgs', url: () => '/orgs?limit=10', status: 200 },
  { method: 'GET', path: '/v1/orgs/{organizationId}', url: org, status: 200 },
  { method: 'GET', path: '/v1/orgs/{organizationId}', url: org, as: 'reader', status: 200, what: 'reader' },
  {
    method: 'PATCH',
    path: '/v1/orgs/{organizationId}',
    url: org,
    body: () => ({ title: 'Quokka docs', emailDomains: ['quokka.test'], defaultRole: 'read' }),
    status: 200,
  },
  { method: 'POST', path: '/v1/orgs/{organizationId}/ping', url: (w) => `${org(w)}/ping`, status: 200 },
  {
    method: 'GET',
    path: '/v1/orgs/{organizationId}/members',
    url: (w) => `${org(w)}/members?limit=2&order=asc&sort=joinedAt`,
    status: 200,
  },
  {
    method: 'GET',
    path: '/v1/orgs/{organizationId}/members',
    url: (w) => `${org(w)}/members?role=read&search=re&sort=lastSeenAt&order=desc`,
    as: 'reader',
    status: 200,
    what: 'filtered',
  },
  {
    method: 'GET',
    path: '/v1/orgs/{organizationId}/members/{userId}',
    url: (w) => `${org(w)}/members/${w.readerUserId}`,
    status: 200,
  },
  {
    method: 'PATCH',
    path: '/v1/orgs/{organizationId}/members/{userId}',
    url: (w) => `${org(w)}/members/${w.spareUserId}`,
    body: () => ({ role: 'comment' }),
    status: 200,
  },
  {
    method: 'POST',
    path: '/v1/orgs/{organizationId}/members/{userId}/sso',
    url: (w) => `${org(w)}/members/${w.spareUserId}/sso`,
    status: 200,
  },
  {
    method: 'GET',
    path: '/v1/orgs/{organizationId}/members/{userId}/spaces',
    url: (w) => `${org(w)}/members/${w.commenterUserId}/spaces?limit=2&order=asc`,
    status: 200,
  },
  {
    method: 'GET',
    path: '/v1/orgs/{organizationId}/search',
    url: (w) => `${org(w)}/search?query=quokka&limit=5`,
    status: 200,
  },
  {
    method: 'POST',
    path: '/v1/orgs/{organizationId}/spaces',
    url: (w) => `${org(w)}/spaces`,
    body: () => ({ title: 'Fresh space', emoji: '1f998' }),
    status: 201,
  },
];

const SPACES: WalkCase[] = [
  { method: 'GET', path: '/v1/spaces/{spaceId}', url: space, status: 200 },
  { method: 'GET', path: '/v1/spaces/{spaceId}', url: space, as: 'reader', status: 200, what: 'reader' },
  {
    method: 'PATCH',
    path: '/v1/spaces/{spaceId}',
    url: space,
    body: () => ({ title: 'Quokka guide', visibility: 'unlisted', defaultLevel: 'read', editMode: 'live' }),
    status: 200,
  },
  {
    method: 'POST',
    path: '/v1/spaces/{spaceId}/duplicate',
    url: (w) => `${space(w)}/duplicate`,
    status: 201,
  },
  {
    method: 'POST',
    path: '/v1/spaces/{spaceId}/move',
    url: (w) => `${space(w)}/move`,
    body: (w) => ({ parent: w.records.nestedCollectionId }),
    status: 200,
  },
  {
    method: 'POST',
    path: '/v1/spaces/{spaceId}/transfer',
    url: (w) => `/spaces/${w.otherSpaceId}/transfer`,
    body: (w) => ({ organization: w.partnerOrgId }),
    status: 200,
  },
  { method: 'GET', path: '/v1/spaces/{spaceId}/links', url: (w) => `${space(w)}/links`, status: 200 },
  {
    method: 'GET',
    path: '/v1/spaces/{spaceId}/links',
    url: (w) => `${space(w)}/links?status=broken&limit=1`,
    status: 200,
    what: 'broken only',
  },
  {
    method: 'GET',
    path: '/v1/spaces/{spaceId}/search',
    url: (w) => `${space(w)}/search?query=quokka&limit=10`,
    status: 200,
  },
];

/** The same reads and import under a space's content and a change request's. */
function contentCases(prefix: string, base: (w: WalkWorld) => string, page: (w: WalkWorld) => string) {
  const file = (w: WalkWorld) => (prefix.includes('change-requests') ? w.crFileId : w.fileId);
  const cases: WalkCase[] = [
    {
      method: 'GET',
      path: prefix,
      url: (w) => `${base(w)}/content?metadata=true&computed=false`,
      status: 200,
    },
    { method: 'GET', path: `${prefix}/pages`, url: (w) => `${base(w)}/content/pages`, status: 200 },
    { method: 'GET', path: `${prefix}/files`, url: (w) => `${base(w)}/content/files?limit=5`, status: 200 },
    {
      method: 'GET',
      path: `${prefix}/files/{fileId}`,
      url: (w) => `${base(w)}/content/files/${file(w)}`,
      status: 200,
    },
    {
      method: 'GET',
      path: `${prefix}/files/{fileId}/backlinks`,
      url: (w) => `${base(w)}/content/files/${file(w)}/backlinks`,
      status: 200,
    },
    {
      method: 'GET',
      path: `${prefix}/page/{pageId}`,
      url: (w) => `${base(w)}/content/page/${page(w)}?format=markdown`,
      status: 200,
    },
    {
      method: 'GET',
      path: `${prefix}/page/{pageId}/links`,
      url: (w) => `${base(w)}/content/page/${page(w)}/links?status=ok`,
      status: 200,
    },
    {
      method: 'POST',
      path: `${prefix}/import`,
      url: (w) => `${base(w)}/content/import`,
      body: (w) => ({ url: w.zipUrl, source: 'zip' }),
      status: 201,
    },
  ];
  return cases;
}

const CONTENT: WalkCase[] = [
  ...contentCases('/v1/spaces/{spaceId}/content', space, (w) => w.pageId),
  {
    method: 'GET',
    path: '/v1/spaces/{spaceId}/content/page/{pageId}',
    url: (w) => `${space(w)}/content/page/${w.groupId}`,
    status: 200,
    what: 'a group',
  },
  {
    method: 'GET',
    path: '/v1/spaces/{spaceId}/content/page/{pageId}',
    url: (w) => `${space(w)}/content/page/${w.linkPageId}`,
    status: 200,
    what: 'a link',
  },
];

const CHANGE_REQUESTS: WalkCase[] = [
  {
    method: 'GET',
    path: '/v1/spaces/{spaceId}/change-requests',
    url: (w) => `${space(w)}/change-requests?status=open&limit=10`,
    status: 200,
  },
  {
    method: 'GET',
    path: '/v1/spaces/{spaceId}/change-requests',
    url: (w) => `${space(w)}/change-requests?status=draft&contributor=${w.commenterUserId}`,
    status: 200,
    what: 'filtered',
  },
  {
    method: 'POST',
    path: '/v1/spaces/{spaceId}/change-requests',
    url: (w) => `${space(w)}/change-requests`,
    body: () => ({ subject: 'Another change' }),
    status: 201,
  },
  { method: 'GET', path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}', url: cr, status: 200 },
  {
    method: 'GET',
    path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}',
    url: (w) => `${space(w)}/change-requests/${w.crNumber}`,
    status: 200,
    what: 'by number',
  },
  {
    method: 'PATCH',
    path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}',
    url: cr,
    body: () => ({ subject: 'Friendlier FAQ, quokka approved', status: 'open' }),
    status: 200,
  },
  {
    method: 'POST',
    path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/update',
    url: (w) => `${cr(w)}/update`,
    status: 200,
  },
  {
    method: 'GET',
    path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/pdf',
    url: (w) => `${cr(w)}/pdf?only=true&page=${w.crPageId}`,
    status: 200,
  },
  ...contentCases('/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content', cr, (w) => w.crPageId),
  {
    method: 'GET',
    path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/reviews',
    url: (w) => `${cr(w)}/reviews`,
    status: 200,
  },
  {
    method: 'POST',
    path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/reviews',
    url: (w) => `${cr(w)}/reviews`,
    body: () => ({ status: 'approved' }),
    as: 'reviewer',
    status: 201,
  },
  {
    method: 'GET',
    path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/reviews/{reviewId}',
    url: (w) => `${cr(w)}/reviews/${w.reviewId}`,
    status: 200,
  },
];

/** The same operations in a space's thread and a change request's. */
function commentCases(prefix: string, base: (w: WalkWorld) => string, inCr: boolean): WalkCase[] {
  const comment = (w: WalkWorld) => `${base(w)}/comments/${inCr ? w.crCommentId : w.commentId}`;
  const reply = (w: WalkWorld) => `${comment(w)}/replies/${inCr ? w.crReplyId : w.replyId}`;
  const page = (w: WalkWorld) => (inCr ? w.crPageId : w.pageId);
  return [
    {
      method: 'GET',
      path: `${prefix}/comments`,
      url: (w) => `${base(w)}/comments?limit=10&order=asc&status=open&targetPage=${page(w)}`,
      status: 200,
    },
    {
      method: 'GET',
      path: `${prefix}/comments`,
      url: (w) => `${base(w)}/comments?authors=${w.commenterUserId}&status=all`,
      as: 'reader',
      status: 200,
      what: 'by author, as a reader',
    },
    {
      method: 'POST',
      path: `${prefix}/comments`,
      url: (w) => `${base(w)}/comments`,
      body: (w) => ({ body: { markdown: 'Where is the **quokka** photo?' }, page: page(w) }),
      as: 'commenter',
      status: 200,
    },
    { method: 'GET', path: `${prefix}/comments/{commentId}`, url: comment, status: 200 },
    {
      method: 'PUT',
      path: `${prefix}/comments/{commentId}`,
      url: comment,
      body: () => ({ resolved: true, addedReactions: ['🎉'] }),
      status: 200,
    },
    {
      method: 'GET',
      path: `${prefix}/comments/{commentId}/replies`,
      url: (w) => `${comment(w)}/replies?limit=5`,
      status: 200,
    },
    {
      method: 'POST',
      path: `${prefix}/comments/{commentId}/replies`,
      url: (w) => `${comment(w)}/replies`,
      body: () => ({ body: { markdown: 'Thanks!' } }),
      as: 'commenter',
      status: 200,
    },
    {
      method: 'GET',
      path: `${prefix}/comments/{commentId}/replies/{commentReplyId}`,
      url: reply,
      status: 200,
    },
    {
      method: 'PUT',
      path: `${prefix}/comments/{commentId}/replies/{commentReplyId}`,
      url: reply,
      body: () => ({ body: { markdown: 'Yes, quokkas are very friendly.' }, addedReactions: ['👍'] }),
      status: 200,
    },
  ];
}

const COMMENTS: WalkCase[] = [
  ...commentCases('/v1/spaces/{spaceId}', space, false),
  // Not in the interface's text; the document has it (listChangeRequestLinks), and docsync reads it.
  {
    method: 'GET',
    path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/links',
    url: (w) => `${cr(w)}/links`,
    status: 200,
  },
  {
    method: 'GET',
    path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/links',
    url: (w) => `${cr(w)}/links?status=broken&brokenContext=change-request&limit=1`,
    status: 200,
    what: 'broken by the change request only',
  },
  ...commentCases('/v1/spaces/{spaceId}/change-requests/{changeRequestId}', cr, true),
];

const OPENAPI: WalkCase[] = [
  {
    method: 'GET',
    path: '/v1/orgs/{organizationId}/openapi',
    url: (w) => `${org(w)}/openapi?limit=10`,
    status: 200,
  },
  {
    method: 'POST',
    path: '/v1/orgs/{organizationId}/openapi',
    url: (w) => `${org(w)}/openapi`,
    body: () => ({ slug: 'more-pets', source: { text: PETS_V2 } }),
    status: 201,
  },
  { method: 'GET', path: '/v1/orgs/{organizationId}/openapi/{specSlug}', url: spec, status: 200 },
  {
    method: 'GET',
    path: '/v1/orgs/{organizationId}/openapi/{specSlug}',
    url: spec,
    as: 'reader',
    status: 200,
    what: 'reader',
  },
  {
    method: 'PUT',
    path: '/v1/orgs/{organizationId}/openapi/{specSlug}',
    url: spec,
    body: () => ({ source: { text: PETS_V2 } }),
    status: 200,
  },
  {
    method: 'GET',
    path: '/v1/orgs/{organizationId}/openapi/{specSlug}/versions',
    url: (w) => `${spec(w)}/versions?limit=1`,
    status: 200,
  },
  {
    method: 'GET',
    path: '/v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest',
    url: (w) => `${spec(w)}/versions/latest`,
    status: 200,
  },
  {
    method: 'GET',
    path: '/v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content',
    url: (w) => `${spec(w)}/versions/latest/content`,
    status: 200,
  },
  {
    method: 'GET',
    path: '/v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}',
    url: (w) => `${spec(w)}/versions/${w.versionId}`,
    status: 200,
  },
  {
    method: 'GET',
    path: '/v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content',
    url: (w) => `${spec(w)}/versions/${w.versionId}/content`,
    status: 200,
  },
];

/** Calls that consume a record, each its own: last. */
const CONSUMING: WalkCase[] = [
  {
    method: 'POST',
    path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge',
    url: (w) => `${space(w)}/change-requests/${w.mergeCrId}/merge`,
    as: 'reviewer',
    status: 200,
  },
  {
    method: 'GET',
    path: '/v1/spaces/{spaceId}/content',
    url: (w) => `${space(w)}/content`,
    status: 200,
    what: 'a merge revision',
  },
  {
    method: 'DELETE',
    path: '/v1/spaces/{spaceId}/comments/{commentId}',
    url: (w) => `${space(w)}/comments/${w.spareCommentId}`,
    status: 205,
  },
  {
    method: 'DELETE',
    path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}',
    url: (w) => `${cr(w)}/comments/${w.crSpareCommentId}`,
    status: 205,
  },
  {
    method: 'DELETE',
    path: '/v1/orgs/{organizationId}/openapi/{specSlug}',
    url: (w) => `${org(w)}/openapi/${w.spareSpecSlug}`,
    status: 205,
  },
  { method: 'DELETE', path: '/v1/spaces/{spaceId}', url: (w) => `/spaces/${w.spareSpaceId}`, status: 205 },
  {
    method: 'GET',
    path: '/v1/spaces/{spaceId}',
    url: (w) => `/spaces/${w.spareSpaceId}`,
    status: 200,
    what: 'deleted, within the restore window',
  },
  {
    method: 'POST',
    path: '/v1/spaces/{spaceId}/restore',
    url: (w) => `/spaces/${w.spareSpaceId}/restore`,
    status: 200,
  },
  {
    method: 'DELETE',
    path: '/v1/orgs/{organizationId}/members/{userId}',
    url: (w) => `${org(w)}/members/${w.spareUserId}`,
    status: 204,
  },
];

export const SUCCESS_CASES: readonly WalkCase[] = [
  ...ORGS,
  ...SPACES,
  ...CONTENT,
  ...CHANGE_REQUESTS,
  ...COMMENTS,
  ...OPENAPI,
  ...ORG_RECORD_CASES,
  ...SITE_CASES,
  ...CONSUMING,
];
