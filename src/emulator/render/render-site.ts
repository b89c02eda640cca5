// Site records and the site's adaptive schema as the interface shows them. Published addresses
// exist only for a published site, and for a share-link site only with the share key that resolves
// them (the `shareKey` query parameter).
import type { EmulatorContext } from '../emulator-context.js';
import { spaceOfSiteSpace } from '../site-access.js';
import type { StoredSite } from '../stored-sites.js';

/** Where the site is published, or undefined where it has no published address for this caller. */
export function publishedAddress(
  ctx: EmulatorContext,
  site: StoredSite,
  shareKey: string | undefined,
): string | undefined {
  if (!site.published) return undefined;
  const base = `${ctx.origin()}/published/${encodeURIComponent(site.basename ?? site.id)}`;
  if (site.visibility !== 'share-link') return base;
  return shareKey === undefined || shareKey === '' ? undefined : `${base}/~s/${encodeURIComponent(shareKey)}`;
}

export function renderSite(ctx: EmulatorContext, site: StoredSite, shareKey?: string) {
  const origin = ctx.origin();
  const published = publishedAddress(ctx, site, shareKey);
  return {
    object: 'site' as const,
    id: site.id,
    type: site.type,
    title: site.title,
    ...(site.basename === undefined ? {} : { basename: site.basename }),
    ...(site.proxy === undefined
      ? {}
      : { proxy: { origin: site.proxy, target: `${origin}/published/${site.id}` } }),
    visibility: site.visibility,
    published: site.published,
    siteSpaces: site.siteSpaces.filter((siteSpace) => spaceOfSiteSpace(ctx, siteSpace) !== undefined).length,
    createdAt: site.createdAt,
    adaptiveContent: { enabled: site.adaptiveContent },
    agentsContext: site.agentsContext,
    // Premium features of the site's plan: the local service keeps none.
    features: [],
    urls: {
      location: `${origin}/v1/orgs/${site.orgId}/sites/${site.id}`,
      app: `${origin}/app/o/${site.orgId}/sites/${site.id}`,
      ...(published === undefined ? {} : { published }),
    },
  };
}

/** The schema a site has before any PUT: no claims, and no unsigned claims. */
const EMPTY_ADAPTIVE_SCHEMA = {
  type: 'object',
  properties: {
    unsigned: {
      type: 'object',
      description: 'Unsigned claims of the site visitor.',
      properties: {},
      additionalProperties: false,
    },
  },
  additionalProperties: false,
} as const;

export function renderAdaptiveSchema(site: StoredSite) {
  return {
    object: 'site-adaptive-schema' as const,
    jsonSchema: site.adaptiveSchema?.jsonSchema ?? EMPTY_ADAPTIVE_SCHEMA,
    updatedAt: site.adaptiveSchema?.updatedAt ?? site.createdAt,
  };
}
