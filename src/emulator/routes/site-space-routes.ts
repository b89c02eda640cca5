// Site spaces: list in site order (filter `default`), add a space (to the section named, else the
// default section, else the top level of a site without sections), patch (path unique in its
// section, condition, the space it shows), delete (205, or 204 when there was no such site space, as
// the document says) and move among site spaces, which may take it into another section.
import type { FastifyInstance } from 'fastify';
import { answerSiteDeletion } from '../answer-site-deletion.js';
import type { EmulatorContext } from '../emulator-context.js';
import { badRequest, conflict } from '../emulator-http-error.js';
import { orderedPageOf } from '../ordered-page.js';
import { parseInput } from '../parse-input.js';
import { renderSiteSpace, shownSiteSpaces } from '../render/render-site-structure.js';
import { requireNamedSite } from '../require-named-site.js';
import {
  requireOrgSpace,
  requireSection,
  requireSiteSpace,
  SITE_WRITE_ROLE,
  type SiteParams,
  savedSite,
} from '../site-access.js';
import { addSiteSpace, removeSiteSpace } from '../site-edits.js';
import { siteSpaceAdd, siteSpaceListQuery, siteSpaceMove, siteSpacePatch } from '../site-inputs.js';
import { placeInOrder } from '../site-order.js';
import {
  defaultSection,
  hasSections,
  isDefaultSiteSpace,
  sectionsInOrder,
  siteSpacesIn,
  uniquePath,
} from '../site-structure.js';
import type { StoredSite, StoredSiteSpace } from '../stored-sites.js';

type SiteSpaceParams = SiteParams & { siteSpaceId: string };

const sameContainer = (a: StoredSiteSpace, b: StoredSiteSpace) => a.sectionId === b.sectionId;

function siblingsOf(site: StoredSite, siteSpace: StoredSiteSpace, sectionId: string | undefined) {
  return siteSpacesIn(site, sectionId).filter((other) => other !== siteSpace);
}

export function registerSiteSpaceRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const base = '/v1/orgs/:o/sites/:siteId/site-spaces';

  app.get<{ Params: SiteParams }>(base, async (request) => {
    const { caller, site } = requireNamedSite(ctx, request, 'read', 'listing site spaces');
    const query = parseInput(siteSpaceListQuery, request.query, 'query');
    const view = { ctx, caller, site, shareKey: query.shareKey };
    const containers = hasSections(site) ? sectionsInOrder(site).map((section) => section.id) : [undefined];
    const siteSpaces = containers
      .flatMap((sectionId) => shownSiteSpaces(view, sectionId))
      .filter(
        (siteSpace) => query.default === undefined || isDefaultSiteSpace(site, siteSpace) === query.default,
      );
    return orderedPageOf(siteSpaces, query, (siteSpace) => renderSiteSpace(view, siteSpace));
  });

  app.post<{ Params: SiteParams }>(base, async (request, reply) => {
    const { caller, org, site } = requireNamedSite(ctx, request, SITE_WRITE_ROLE, 'adding a space to a site');
    const body = parseInput(siteSpaceAdd, request.body, 'body');
    const section =
      body.sectionId === undefined ? defaultSection(site) : requireSection(site, body.sectionId);
    const space = requireOrgSpace(ctx, org, body.spaceId);
    const siteSpace = addSiteSpace(site, space, section?.id);
    savedSite(ctx, site);
    return reply.code(201).send(renderSiteSpace({ ctx, caller, site }, siteSpace));
  });

  app.delete<{ Params: SiteSpaceParams }>(`${base}/:siteSpaceId`, async (request, reply) => {
    const { site } = requireNamedSite(ctx, request, SITE_WRITE_ROLE, 'deleting a site space');
    const siteSpace = site.siteSpaces.find((candidate) => candidate.id === request.params.siteSpaceId);
    return answerSiteDeletion(ctx, reply, site, siteSpace, removeSiteSpace);
  });

  app.patch<{ Params: SiteSpaceParams }>(`${base}/:siteSpaceId`, async (request) => {
    const { caller, org, site } = requireNamedSite(ctx, request, SITE_WRITE_ROLE, 'changing a site space');
    const siteSpace = requireSiteSpace(ctx, site, request.params.siteSpaceId);
    const patch = parseInput(siteSpacePatch, request.body, 'body');
    const siblings = siblingsOf(site, siteSpace, siteSpace.sectionId);
    if (patch.path !== undefined && siblings.some((other) => other.path === patch.path)) {
      throw conflict(`path: another site space of the section already has the path ${patch.path}`);
    }
    const space = patch.spaceId === undefined ? undefined : requireOrgSpace(ctx, org, patch.spaceId);
    if (space !== undefined && siblings.some((other) => other.spaceId === space.id)) {
      throw conflict(`spaceId: space ${space.id} is already in this section`);
    }
    if (patch.path !== undefined) siteSpace.path = patch.path;
    if (space !== undefined) siteSpace.spaceId = space.id;
    if (patch.condition === null) delete siteSpace.condition;
    else if (patch.condition !== undefined) siteSpace.condition = patch.condition;
    savedSite(ctx, site);
    return renderSiteSpace({ ctx, caller, site }, siteSpace);
  });

  app.post<{ Params: SiteSpaceParams }>(`${base}/:siteSpaceId/move`, async (request) => {
    const { caller, site } = requireNamedSite(ctx, request, SITE_WRITE_ROLE, 'moving a site space');
    const siteSpace = requireSiteSpace(ctx, site, request.params.siteSpaceId);
    const { position } = parseInput(siteSpaceMove, request.body, 'body');
    const before =
      position?.before === undefined ? undefined : requireSiteSpace(ctx, site, position.before.siteSpace);
    const after =
      position?.after === undefined ? undefined : requireSiteSpace(ctx, site, position.after.siteSpace);
    // Next to a site space of another section, it becomes a variant of that section; with no
    // position it goes to the end of its own.
    const anchor = before ?? after;
    const sectionId = anchor === undefined ? siteSpace.sectionId : anchor.sectionId;
    if (sectionId !== siteSpace.sectionId) {
      if (siteSpace.sectionId !== undefined && siteSpacesIn(site, siteSpace.sectionId).length === 1) {
        throw badRequest(
          `position: site space ${siteSpace.id} is the last of its section and cannot leave it`,
        );
      }
      const siblings = siblingsOf(site, siteSpace, sectionId);
      if (siblings.some((other) => other.spaceId === siteSpace.spaceId)) {
        throw conflict(`position: space ${siteSpace.spaceId} is already in section ${sectionId ?? '(none)'}`);
      }
      placeInOrder(site.siteSpaces, siteSpace, { before, after }, sameContainer);
      siteSpace.path = uniquePath(
        siteSpace.path,
        siblings.map((other) => other.path),
      );
      if (sectionId === undefined) delete siteSpace.sectionId;
      else siteSpace.sectionId = sectionId;
    } else {
      placeInOrder(site.siteSpaces, siteSpace, { before, after }, sameContainer);
    }
    savedSite(ctx, site);
    return renderSiteSpace({ ctx, caller, site }, siteSpace);
  });
}
