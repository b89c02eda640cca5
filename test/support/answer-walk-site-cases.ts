// The successful calls of the walk on sites: the site, its adaptive schema and published view, its
// sections, section groups and site spaces. Deletions come last and consume the spares of
// answer-walk-site-world.ts.
import type { WalkCase } from './answer-walk-case.js';
import type { WalkWorld } from './answer-walk-world.js';

const sites = (w: WalkWorld) => `/orgs/${w.orgId}/sites`;
const site = (w: WalkWorld) => `${sites(w)}/${w.sites.siteId}`;
const SITE = '/v1/orgs/{organizationId}/sites/{siteId}';

const ADAPTIVE_SCHEMA = {
  jsonSchema: {
    type: 'object',
    properties: {
      isBetaUser: { type: 'boolean', description: 'Sees the beta pages' },
      unsigned: {
        type: 'object',
        description: 'Unsigned claims of the site visitor.',
        properties: { prefersDarkMode: { type: 'boolean', description: 'Asked for dark mode' } },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  },
};

const SITES: WalkCase[] = [
  {
    method: 'GET',
    path: '/v1/orgs/{organizationId}/sites',
    url: (w) => `${sites(w)}?limit=5&title=quokka`,
    status: 200,
  },
  {
    method: 'POST',
    path: '/v1/orgs/{organizationId}/sites',
    url: sites,
    body: () => ({ title: 'Quokka API site', visibility: 'unlisted' }),
    status: 201,
  },
  { method: 'GET', path: SITE, url: site, status: 200 },
  {
    method: 'PATCH',
    path: SITE,
    url: site,
    body: () => ({ title: 'Quokka docs site', basename: 'quokka' }),
    status: 200,
  },
  {
    method: 'PUT',
    path: `${SITE}/adaptive-schema`,
    url: (w) => `${site(w)}/adaptive-schema`,
    body: () => ADAPTIVE_SCHEMA,
    status: 200,
  },
  { method: 'GET', path: `${SITE}/adaptive-schema`, url: (w) => `${site(w)}/adaptive-schema`, status: 200 },
  { method: 'GET', path: `${SITE}/published`, url: (w) => `${site(w)}/published`, as: 'reader', status: 200 },
];

const SECTIONS: WalkCase[] = [
  { method: 'GET', path: `${SITE}/sections`, url: (w) => `${site(w)}/sections?limit=10`, status: 200 },
  {
    method: 'POST',
    path: `${SITE}/sections`,
    url: (w) => `${site(w)}/sections`,
    body: (w) => ({ spaceId: w.sites.freeSpaceId, title: 'Drafts', icon: 'pen' }),
    status: 201,
  },
  {
    method: 'PATCH',
    path: `${SITE}/sections/{siteSectionId}`,
    url: (w) => `${site(w)}/sections/${w.sites.sectionId}`,
    body: () => ({ title: 'Getting started', description: 'Where quokkas begin', path: 'start' }),
    status: 200,
  },
  {
    method: 'POST',
    path: `${SITE}/sections/{siteSectionId}/move`,
    url: (w) => `${site(w)}/sections/${w.sites.otherSectionId}/move`,
    body: (w) => ({ position: { before: { type: 'site-section', siteSection: w.sites.sectionId } } }),
    status: 200,
  },
];

const GROUPS: WalkCase[] = [
  { method: 'GET', path: `${SITE}/section-groups`, url: (w) => `${site(w)}/section-groups`, status: 200 },
  {
    method: 'POST',
    path: `${SITE}/section-groups`,
    url: (w) => `${site(w)}/section-groups`,
    body: () => ({ title: 'Guides', icon: 'book' }),
    status: 201,
  },
  {
    method: 'PATCH',
    path: `${SITE}/section-groups/{siteSectionGroupId}`,
    url: (w) => `${site(w)}/section-groups/${w.sites.groupId}`,
    body: () => ({ title: 'API reference' }),
    status: 200,
  },
  {
    method: 'POST',
    path: `${SITE}/section-groups/{siteSectionGroupId}/sections`,
    url: (w) => `${site(w)}/section-groups/${w.sites.groupId}/sections`,
    body: (w) => ({ sectionId: w.sites.spareSectionId }),
    status: 201,
  },
  {
    method: 'DELETE',
    path: `${SITE}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}`,
    url: (w) => `${site(w)}/section-groups/${w.sites.groupId}/sections/${w.sites.spareSectionId}`,
    status: 205,
  },
  {
    method: 'POST',
    path: `${SITE}/section-groups/{siteSectionGroupId}/move`,
    url: (w) => `${site(w)}/section-groups/${w.sites.groupId}/move`,
    body: (w) => ({ position: { after: { type: 'site-section', id: w.sites.sectionId } } }),
    status: 200,
  },
];

const SITE_SPACES: WalkCase[] = [
  { method: 'GET', path: `${SITE}/site-spaces`, url: (w) => `${site(w)}/site-spaces?limit=10`, status: 200 },
  {
    method: 'POST',
    path: `${SITE}/site-spaces`,
    url: (w) => `${site(w)}/site-spaces`,
    body: (w) => ({ spaceId: w.spaceId, sectionId: w.sites.sectionId }),
    status: 201,
  },
  {
    method: 'PATCH',
    path: `${SITE}/site-spaces/{siteSpaceId}`,
    url: (w) => `${site(w)}/site-spaces/${w.sites.siteSpaceId}`,
    body: () => ({ path: 'archive', condition: 'visitor.claims.isBetaUser' }),
    status: 200,
  },
  {
    method: 'POST',
    path: `${SITE}/site-spaces/{siteSpaceId}/move`,
    url: (w) => `${site(w)}/site-spaces/${w.sites.siteSpaceId}/move`,
    body: (w) => ({ position: { before: { type: 'site-space', siteSpace: w.sites.spareSiteSpaceId } } }),
    status: 200,
  },
];

/** Deletions, each of a spare. */
const DELETIONS: WalkCase[] = [
  {
    method: 'DELETE',
    path: `${SITE}/site-spaces/{siteSpaceId}`,
    url: (w) => `${site(w)}/site-spaces/${w.sites.spareSiteSpaceId}`,
    status: 205,
  },
  {
    method: 'DELETE',
    path: `${SITE}/section-groups/{siteSectionGroupId}`,
    url: (w) => `${site(w)}/section-groups/${w.sites.spareGroupId}`,
    status: 205,
  },
  {
    method: 'DELETE',
    path: `${SITE}/sections/{siteSectionId}`,
    url: (w) => `${site(w)}/sections/${w.sites.spareSectionId}`,
    status: 205,
  },
  { method: 'DELETE', path: SITE, url: (w) => `${sites(w)}/${w.sites.spareSiteId}`, status: 205 },
];

export const SITE_CASES: readonly WalkCase[] = [
  ...SITES,
  ...SECTIONS,
  ...GROUPS,
  ...SITE_SPACES,
  ...DELETIONS,
];
