// The successful calls of the walk on the organization's own records: collections, teams, custom
// fields, invite links, organizations by e-mail domain, SAML providers and SSO, translation settings.
// Deletions come last in each group and consume the spares of answer-walk-org-world.ts.
import type { WalkCase } from './answer-walk-case.js';
import type { WalkWorld } from './answer-walk-world.js';

const org = (w: WalkWorld) => `/orgs/${w.orgId}`;
const collection = (w: WalkWorld) => `/collections/${w.records.collectionId}`;
const team = (w: WalkWorld) => `${org(w)}/teams/${w.records.teamId}`;

const COLLECTIONS: WalkCase[] = [
  {
    method: 'GET',
    path: '/v1/orgs/{organizationId}/collections',
    url: (w) => `${org(w)}/collections?limit=10`,
    status: 200,
  },
  {
    method: 'POST',
    path: '/v1/orgs/{organizationId}/collections',
    url: (w) => `${org(w)}/collections`,
    body: (w) => ({ title: 'Tutorials', parent: w.records.collectionId }),
    status: 201,
  },
  { method: 'GET', path: '/v1/collections/{collectionId}', url: collection, status: 200 },
  {
    method: 'GET',
    path: '/v1/collections/{collectionId}',
    url: collection,
    as: 'reader',
    status: 200,
    what: 'reader',
  },
  {
    method: 'PATCH',
    path: '/v1/collections/{collectionId}',
    url: collection,
    body: () => ({ title: 'Quokka guides', description: 'Everything about quokkas' }),
    status: 200,
  },
  {
    method: 'GET',
    path: '/v1/collections/{collectionId}/spaces',
    url: (w) => `/collections/${w.records.nestedCollectionId}/spaces?limit=5`,
    status: 200,
  },
  {
    method: 'POST',
    path: '/v1/collections/{collectionId}/move',
    url: (w) => `/collections/${w.records.nestedCollectionId}/move`,
    body: (w) => ({
      parent: null,
      position: { before: { type: 'collection', collection: w.records.collectionId } },
    }),
    status: 200,
  },
  {
    method: 'POST',
    path: '/v1/collections/{collectionId}/transfer',
    url: (w) => `/collections/${w.records.transferCollectionId}/transfer`,
    body: (w) => ({ organization: w.partnerOrgId }),
    status: 200,
  },
  {
    method: 'DELETE',
    path: '/v1/collections/{collectionId}',
    url: (w) => `/collections/${w.records.spareCollectionId}`,
    status: 205,
  },
];

const TEAMS: WalkCase[] = [
  {
    method: 'GET',
    path: '/v1/orgs/{organizationId}/teams',
    url: (w) => `${org(w)}/teams?limit=5`,
    status: 200,
  },
  {
    method: 'GET',
    path: '/v1/orgs/{organizationId}/teams',
    url: (w) => `${org(w)}/teams?title=writ`,
    as: 'reader',
    status: 200,
    what: 'by title, as a reader',
  },
  {
    method: 'PUT',
    path: '/v1/orgs/{organizationId}/teams',
    url: (w) => `${org(w)}/teams`,
    body: (w) => ({ title: 'Reviewers', members: [w.commenterUserId] }),
    status: 201,
  },
  { method: 'GET', path: '/v1/orgs/{organizationId}/teams/{teamId}', url: team, status: 200 },
  {
    method: 'PATCH',
    path: '/v1/orgs/{organizationId}/teams/{teamId}',
    url: team,
    body: () => ({ title: 'Quokka writers' }),
    status: 200,
  },
  {
    method: 'PUT',
    path: '/v1/orgs/{organizationId}/teams/{teamId}/members',
    url: (w) => `${team(w)}/members`,
    body: (w) => ({ add: [w.commenterUserId], memberships: { [w.readerUserId]: { role: 'owner' } } }),
    status: 204,
  },
  {
    method: 'PUT',
    path: '/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}',
    url: (w) => `${team(w)}/members/${w.spareUserId}`,
    body: () => ({ role: 'member' }),
    status: 204,
  },
  {
    method: 'GET',
    path: '/v1/orgs/{organizationId}/teams/{teamId}/members',
    url: (w) => `${team(w)}/members?limit=10`,
    status: 200,
  },
  {
    method: 'GET',
    path: '/v1/orgs/{organizationId}/members/{userId}/teams',
    url: (w) => `${org(w)}/members/${w.readerUserId}/teams`,
    status: 200,
  },
  {
    method: 'DELETE',
    path: '/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}',
    url: (w) => `${team(w)}/members/${w.commenterUserId}`,
    status: 204,
  },
  {
    method: 'DELETE',
    path: '/v1/orgs/{organizationId}/teams/{teamId}',
    url: (w) => `${org(w)}/teams/${w.records.spareTeamId}`,
    status: 204,
  },
];

const CUSTOM_FIELDS: WalkCase[] = [
  {
    method: 'GET',
    path: '/v1/orgs/{organizationId}/custom-fields',
    url: (w) => `${org(w)}/custom-fields?limit=10`,
    status: 200,
  },
  {
    method: 'POST',
    path: '/v1/orgs/{organizationId}/custom-fields',
    url: (w) => `${org(w)}/custom-fields`,
    body: () => ({ name: 'reviewed', type: 'boolean', title: 'Reviewed' }),
    status: 201,
  },
  {
    method: 'GET',
    path: '/v1/orgs/{organizationId}/custom-fields/{fieldName}',
    url: (w) => `${org(w)}/custom-fields/${w.records.fieldName}`,
    status: 200,
  },
  {
    method: 'PATCH',
    path: '/v1/orgs/{organizationId}/custom-fields/{fieldName}',
    url: (w) => `${org(w)}/custom-fields/${w.records.fieldName}`,
    body: () => ({
      description: 'Who the space is written for',
      options: ['developers', 'writers', 'admins'],
    }),
    status: 200,
  },
  {
    method: 'PATCH',
    path: '/v1/spaces/{spaceId}/custom-fields',
    url: (w) => `/spaces/${w.spaceId}/custom-fields`,
    body: () => ({ values: { audience: { value: 'writers' }, reviewed: { value: true } } }),
    status: 204,
  },
  {
    method: 'GET',
    path: '/v1/spaces/{spaceId}/custom-fields',
    url: (w) => `/spaces/${w.spaceId}/custom-fields`,
    as: 'reader',
    status: 200,
  },
  {
    method: 'DELETE',
    path: '/v1/orgs/{organizationId}/custom-fields/{fieldName}',
    url: (w) => `${org(w)}/custom-fields/${w.records.spareFieldName}`,
    status: 204,
  },
];

const INVITES: WalkCase[] = [
  {
    method: 'GET',
    path: '/v1/orgs/{organizationId}/link-invites',
    url: (w) => `${org(w)}/link-invites?limit=10`,
    status: 200,
  },
  {
    method: 'POST',
    path: '/v1/orgs/{organizationId}/link-invites',
    url: (w) => `${org(w)}/link-invites`,
    body: (w) => ({ level: 'read', collection: w.records.collectionId }),
    status: 201,
  },
  {
    method: 'GET',
    path: '/v1/orgs/{organizationId}/link-invites/{inviteId}',
    url: (w) => `${org(w)}/link-invites/${w.records.inviteId}`,
    status: 200,
  },
  {
    method: 'PATCH',
    path: '/v1/orgs/{organizationId}/link-invites/{inviteId}',
    url: (w) => `${org(w)}/link-invites/${w.records.inviteId}`,
    body: () => ({ role: 'comment' }),
    status: 200,
  },
  {
    method: 'DELETE',
    path: '/v1/orgs/{organizationId}/link-invites/{inviteId}',
    url: (w) => `${org(w)}/link-invites/${w.records.spareInviteId}`,
    status: 205,
  },
  {
    method: 'GET',
    path: '/v1/email-domains/{emailDomain}/orgs',
    url: () => '/email-domains/quokka.test/orgs',
    status: 200,
  },
];

const SSO: WalkCase[] = [
  {
    method: 'GET',
    path: '/v1/orgs/{organizationId}/saml',
    url: (w) => `${org(w)}/saml?limit=5`,
    status: 200,
  },
  {
    method: 'POST',
    path: '/v1/orgs/{organizationId}/saml',
    url: (w) => `${org(w)}/saml`,
    body: () => ({ label: 'Azure AD', entityID: 'https://sts.example.com/entity' }),
    status: 201,
  },
  {
    method: 'GET',
    path: '/v1/orgs/{organizationId}/saml/{samlProviderId}',
    url: (w) => `${org(w)}/saml/${w.records.samlProviderId}`,
    status: 200,
  },
  {
    method: 'PATCH',
    path: '/v1/orgs/{organizationId}/saml/{samlProviderId}',
    url: (w) => `${org(w)}/saml/${w.records.samlProviderId}`,
    body: (w) => ({ label: 'Okta SSO', defaultTeam: w.records.teamId, defaultRole: 'comment' }),
    status: 200,
  },
  {
    method: 'GET',
    path: '/v1/orgs/{organizationId}/sso',
    url: (w) => `${org(w)}/sso`,
    as: 'reader',
    status: 200,
  },
  {
    method: 'DELETE',
    path: '/v1/orgs/{organizationId}/saml/{samlProviderId}',
    url: (w) => `${org(w)}/saml/${w.records.spareSamlProviderId}`,
    status: 204,
  },
];

const TRANSLATIONS: WalkCase[] = [
  {
    method: 'GET',
    path: '/v1/orgs/{organizationId}/translations',
    url: (w) => `${org(w)}/translations?limit=5`,
    status: 200,
  },
  {
    method: 'POST',
    path: '/v1/orgs/{organizationId}/translations',
    url: (w) => `${org(w)}/translations`,
    body: () => ({ title: 'Japanese', languages: ['ja'] }),
    status: 201,
  },
  {
    method: 'GET',
    path: '/v1/orgs/{organizationId}/translations/{translationSettingsId}',
    url: (w) => `${org(w)}/translations/${w.records.translationId}`,
    status: 200,
  },
  {
    method: 'PUT',
    path: '/v1/orgs/{organizationId}/translations/{translationSettingsId}',
    url: (w) => `${org(w)}/translations/${w.records.translationId}`,
    body: () => ({ title: 'French and Spanish', languages: ['fr', 'es'] }),
    status: 200,
  },
  {
    method: 'DELETE',
    path: '/v1/orgs/{organizationId}/translations/{translationSettingsId}',
    url: (w) => `${org(w)}/translations/${w.records.spareTranslationId}`,
    status: 205,
  },
];

export const ORG_RECORD_CASES: readonly WalkCase[] = [
  ...COLLECTIONS,
  ...TEAMS,
  ...CUSTOM_FIELDS,
  ...INVITES,
  ...SSO,
  ...TRANSLATIONS,
];
