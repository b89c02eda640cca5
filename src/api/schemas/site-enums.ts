// The closed vocabularies of sites, as the public document of the service gives them.

export const SITE_TYPES = [
  'basic',
  'premium',
  'ultimate',
  'sponsored',
  'legacy-basic',
  'legacy-premium',
] as const;
export type SiteType = (typeof SITE_TYPES)[number];

/** `share-link` sites are reached with a share key; `visitor-auth` ones through a visitor's JWT. */
export const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
export type SiteVisibility = (typeof SITE_VISIBILITIES)[number];

/** Whether AI agents may read the site. */
export const SITE_AGENTS_CONTEXTS = ['excluded', 'included'] as const;
export type SiteAgentsContext = (typeof SITE_AGENTS_CONTEXTS)[number];

/** The enumerated `spaces` of a new site: the service creates a space for it. */
export const NEW_SITE_SPACE = 'new';
