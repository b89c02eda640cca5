// Records as the service sends them, for the client tests to answer with.

export const TOKEN = 'gb_api_SECRET_token_0123456789';

export const user = { object: 'user', id: 'u1', displayName: 'Ada', email: 'ada@example.com' };

export function space(id = 'sp1') {
  return {
    object: 'space',
    id,
    title: 'Docs',
    emoji: '',
    visibility: 'private',
    createdAt: '2025-01-02T03:04:05.000Z',
    updatedAt: '2025-01-02T03:04:05.000Z',
    organization: 'org1',
    revision: 'rev1',
    defaultLevel: null,
    comments: 0,
    changeRequests: 1,
    changeRequestsOpen: 1,
    changeRequestsDraft: 0,
    somethingNew: { the: 'service may add fields' },
  };
}

export function changeRequest(id = 'cr1', number = 1) {
  return {
    object: 'change-request',
    id,
    number,
    status: 'open',
    subject: 'docs: update',
    createdBy: user,
    createdAt: '2025-01-02T03:04:05.000Z',
    updatedAt: '2025-01-02T03:04:05.000Z',
    revision: 'rev2',
    revisionInitial: 'rev1',
    comments: 0,
    outdated: false,
  };
}

export function comment(id = 'c1') {
  return {
    object: 'comment',
    id,
    postedBy: user,
    postedAt: '2025-01-02T03:04:05.000Z',
    body: { markdown: 'Broken links: none' },
    status: 'open',
    replies: 0,
  };
}

export function openApiSpec(slug = 'payments') {
  return {
    object: 'openapi-spec',
    id: 'spec1',
    createdAt: '2025-01-02T03:04:05.000Z',
    updatedAt: '2025-01-02T03:04:05.000Z',
    slug,
    processingState: 'pending',
  };
}

export const organization = {
  object: 'organization',
  id: 'org1',
  title: 'Acme',
  createdAt: '2025-01-02T03:04:05.000Z',
  emailDomains: [],
  type: 'business',
  inviteLinks: false,
  plan: 'free',
};

export const revisionPage = {
  id: 'p1',
  title: 'Intro',
  path: 'intro',
  markdown: '# Intro',
  pages: [{ id: 'p2', title: 'Child', pages: [{ id: 'p3', title: 'Grandchild' }] }],
};

export const revision = {
  object: 'revision',
  id: 'rev2',
  parents: ['rev1'],
  pages: [revisionPage],
  files: [{ id: 'f1', name: 'logo.png', size: 12 }],
  createdAt: '2025-01-02T03:04:05.000Z',
};

export const linkCheckList = {
  items: [
    {
      status: 'broken',
      relation: 'reference',
      targetReference: { kind: 'url', url: 'https://gone.example.com' },
      locationReferences: [
        {
          kind: 'page',
          organization: { ...organization },
          space: space(),
          page: { id: 'p1', title: 'Intro' },
        },
      ],
    },
  ],
  stats: { total: 4, broken: { total: 1 } },
};

export const review = {
  object: 'change-request-review',
  id: 'rv1',
  revision: 'rev2',
  reviewer: user,
  status: 'approved',
  createdAt: '2025-01-02T03:04:05.000Z',
  updatedAt: '2025-01-02T03:04:05.000Z',
  outdated: false,
};
