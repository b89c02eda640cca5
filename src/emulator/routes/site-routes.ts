// Sites: list (filters space, title, published, type), create (with spaces, or a new space of its
// own), get, patch (settings and the defaults), delete; the adaptive schema; the published view; and
// the document's publish and unpublish, the only moves of `published`. Reading needs the read role,
// changing a site the create role, deleting one admin.
import type { FastifyInstance } from 'fastify';
import { NEW_SITE_SPACE } from '../../api/schemas/site-enums.js';
import { callerOf, requireOrg } from '../access.js';
import { createEmptySpace } from '../create-empty-space.js';
import type { EmulatorContext } from '../emulator-context.js';
import { badRequest } from '../emulator-http-error.js';
import { nextSeq } from '../emulator-state.js';
import { newId } from '../ids.js';
import { pageOf } from '../page-list.js';
import { parseInput } from '../parse-input.js';
import { renderAdaptiveSchema, renderSite } from '../render/render-site.js';
import { renderPublishedSite } from '../render/render-site-published.js';
import {
  requireOrgSpace,
  requireSection,
  requireSite,
  requireSiteSpace,
  SITE_DELETE_ROLE,
  SITE_WRITE_ROLE,
  type SiteParams,
  savedSite,
} from '../site-access.js';
import { addSiteSpace } from '../site-edits.js';
import { adaptiveSchemaPut, shareKeyQuery, siteCreate, siteListQuery, sitePatch } from '../site-inputs.js';
import { defaultSection, hasSections } from '../site-structure.js';
import type { StoredSite } from '../stored-sites.js';

export function registerSiteRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  registerSiteListRoutes(app, ctx);
  registerOneSiteRoutes(app, ctx);
  registerAdaptiveSchemaRoutes(app, ctx);
  registerSitePublishingRoutes(app, ctx);
}

/** The sites of an organization: list and create. */
function registerSiteListRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get<{ Params: { o: string } }>('/v1/orgs/:o/sites', async (request) => {
    const caller = callerOf(request);
    const org = requireOrg(caller, request.params.o, 'read', 'listing sites');
    const query = parseInput(siteListQuery, request.query, 'query');
    const types = query.type === undefined ? undefined : [query.type].flat();
    const title = query.title?.toLowerCase();
    const sites = Object.values(ctx.state.sites).filter(
      (site) =>
        site.orgId === org.id &&
        (query.space === undefined ||
          site.siteSpaces.some((siteSpace) => siteSpace.spaceId === query.space)) &&
        (title === undefined || site.title.toLowerCase().includes(title)) &&
        (query.published === undefined || site.published === query.published) &&
        (types === undefined || types.includes(site.type)),
    );
    return pageOf(sites, query, (site) => renderSite(ctx, site));
  });

  app.post<{ Params: { o: string } }>('/v1/orgs/:o/sites', async (request, reply) => {
    const caller = callerOf(request);
    const org = requireOrg(caller, request.params.o, SITE_WRITE_ROLE, 'creating a site');
    const body = parseInput(siteCreate, request.body, 'body');
    const ids = body.spaces === undefined || body.spaces === NEW_SITE_SPACE ? [] : body.spaces;
    const twice = ids.find((id, index) => ids.indexOf(id) !== index);
    if (twice !== undefined) throw badRequest(`spaces: space ${twice} is listed twice`);
    const spaces = ids.map((id) => requireOrgSpace(ctx, org, id));
    const now = ctx.now().toISOString();
    const site: StoredSite = {
      id: newId('site_'),
      seq: nextSeq(ctx.state),
      orgId: org.id,
      type: body.type ?? 'basic',
      title: body.title ?? 'Untitled site',
      visibility: body.visibility ?? 'public',
      published: false,
      createdAt: now,
      updatedAt: now,
      adaptiveContent: false,
      agentsContext: 'included',
      nodes: [],
      siteSpaces: [],
    };
    if (body.spaces === NEW_SITE_SPACE)
      spaces.push(createEmptySpace(ctx, org.id, { title: site.title.slice(0, 50) }));
    for (const space of spaces) addSiteSpace(site, space, undefined);
    ctx.state.sites[site.id] = site;
    ctx.changed();
    return reply
      .code(201)
      .header('location', `/v1/orgs/${org.id}/sites/${site.id}`)
      .send(renderSite(ctx, site));
  });
}

/** One site: get, patch and delete. */
function registerOneSiteRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get<{ Params: SiteParams }>('/v1/orgs/:o/sites/:siteId', async (request) => {
    const { site } = requireSite(ctx, callerOf(request), request.params, 'read', 'reading the site');
    return renderSite(ctx, site);
  });

  app.patch<{ Params: SiteParams }>('/v1/orgs/:o/sites/:siteId', async (request) => {
    const { site } = requireSite(
      ctx,
      callerOf(request),
      request.params,
      SITE_WRITE_ROLE,
      'changing the site',
    );
    const patch = parseInput(sitePatch, request.body, 'body');
    // Everything named is found before anything changes: a 404 or 400 leaves the site as it was.
    const section =
      patch.defaultSiteSection === undefined ? undefined : requireSection(site, patch.defaultSiteSection);
    const siteSpace =
      patch.defaultSiteSpace === undefined ? undefined : requireSiteSpace(ctx, site, patch.defaultSiteSpace);
    const defaultSectionAfter = section ?? defaultSection(site);
    if (siteSpace !== undefined && hasSections(site) && siteSpace.sectionId !== defaultSectionAfter?.id) {
      throw badRequest(`defaultSiteSpace: site space ${siteSpace.id} is not in the default section`);
    }
    if (patch.title !== undefined) site.title = patch.title;
    if (patch.visibility !== undefined) site.visibility = patch.visibility;
    if (patch.basename !== undefined) site.basename = patch.basename;
    if (patch.adaptiveContent !== undefined) site.adaptiveContent = patch.adaptiveContent.enabled;
    if (patch.agentsContext !== undefined) site.agentsContext = patch.agentsContext;
    if (patch.proxy === null) delete site.proxy;
    else if (patch.proxy !== undefined) site.proxy = patch.proxy;
    if (section !== undefined) site.defaultSectionId = section.id;
    if (siteSpace?.sectionId !== undefined)
      requireSection(site, siteSpace.sectionId).defaultSiteSpaceId = siteSpace.id;
    else if (siteSpace !== undefined) site.defaultSiteSpaceId = siteSpace.id;
    savedSite(ctx, site);
    return renderSite(ctx, site);
  });

  app.delete<{ Params: SiteParams }>('/v1/orgs/:o/sites/:siteId', async (request, reply) => {
    const caller = callerOf(request);
    const org = requireOrg(caller, request.params.o, SITE_DELETE_ROLE, 'deleting a site');
    const site = ctx.state.sites[request.params.siteId];
    // As the public document says: 205 when deleted, 204 when there was no such site.
    if (site === undefined || site.orgId !== org.id) return reply.code(204).send();
    delete ctx.state.sites[site.id];
    ctx.changed();
    return reply.code(205).send();
  });
}

/** A site's adaptive schema: read and replace. */
function registerAdaptiveSchemaRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get<{ Params: SiteParams }>('/v1/orgs/:o/sites/:siteId/adaptive-schema', async (request) => {
    const { site } = requireSite(
      ctx,
      callerOf(request),
      request.params,
      'read',
      'reading the adaptive schema',
    );
    return renderAdaptiveSchema(site);
  });

  app.put<{ Params: SiteParams }>('/v1/orgs/:o/sites/:siteId/adaptive-schema', async (request) => {
    const { site } = requireSite(
      ctx,
      callerOf(request),
      request.params,
      SITE_WRITE_ROLE,
      'changing the adaptive schema',
    );
    const body = parseInput(adaptiveSchemaPut, request.body, 'body');
    site.adaptiveSchema = { jsonSchema: body.jsonSchema, updatedAt: ctx.now().toISOString() };
    savedSite(ctx, site);
    return renderAdaptiveSchema(site);
  });
}

/** The published view of a site, and its publish and unpublish. */
function registerSitePublishingRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get<{ Params: SiteParams }>('/v1/orgs/:o/sites/:siteId/published', async (request) => {
    const caller = callerOf(request);
    const { site } = requireSite(ctx, caller, request.params, 'read', 'reading the published site');
    const { shareKey } = parseInput(shareKeyQuery, request.query, 'query');
    return renderPublishedSite({ ctx, caller, site, shareKey });
  });

  for (const [verb, published] of [
    ['publish', true],
    ['unpublish', false],
  ] as const) {
    app.post<{ Params: SiteParams }>(`/v1/orgs/:o/sites/:siteId/${verb}`, async (request) => {
      const { site } = requireSite(
        ctx,
        callerOf(request),
        request.params,
        SITE_WRITE_ROLE,
        `${verb}ing the site`,
      );
      site.published = published;
      savedSite(ctx, site);
      return renderSite(ctx, site);
    });
  }
}
