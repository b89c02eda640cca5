// Site sections: list in site order, create (with its first variant), patch (path unique in the
// site, the default variant), delete (with its site spaces: 205, or 204 when there was no such
// section, as the document says) and move among sections, which may take it into another group.
import type { FastifyInstance } from 'fastify';
import { answerSiteDeletion } from '../answer-site-deletion.js';
import type { EmulatorContext } from '../emulator-context.js';
import { badRequest, conflict } from '../emulator-http-error.js';
import { moveSiteNode } from '../move-site-node.js';
import { orderedPageOf } from '../ordered-page.js';
import { parseInput } from '../parse-input.js';
import { renderSection } from '../render/render-site-structure.js';
import { requireNamedSite } from '../require-named-site.js';
import {
  findSection,
  requireOrgSpace,
  requireSection,
  requireSiteSpace,
  SITE_WRITE_ROLE,
  type SiteParams,
  savedSite,
} from '../site-access.js';
import { createSection, removeSection } from '../site-edits.js';
import { sectionCreate, sectionMove, sectionPatch, shareKeyQuery } from '../site-inputs.js';
import { sectionsInOrder } from '../site-structure.js';

type SectionParams = SiteParams & { siteSectionId: string };

export function registerSiteSectionRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get<{ Params: SiteParams }>('/v1/orgs/:o/sites/:siteId/sections', async (request) => {
    const { caller, site } = requireNamedSite(ctx, request, 'read', 'listing site sections');
    const query = parseInput(shareKeyQuery, request.query, 'query');
    const view = { ctx, caller, site, shareKey: query.shareKey };
    return orderedPageOf(sectionsInOrder(site), query, (section) => renderSection(view, section));
  });

  app.post<{ Params: SiteParams }>('/v1/orgs/:o/sites/:siteId/sections', async (request, reply) => {
    const { caller, org, site } = requireNamedSite(ctx, request, SITE_WRITE_ROLE, 'adding a site section');
    const body = parseInput(sectionCreate, request.body, 'body');
    const space = requireOrgSpace(ctx, org, body.spaceId);
    const section = createSection(
      site,
      space,
      { title: body.title ?? undefined, icon: body.icon ?? undefined },
      (spaceId) => ctx.state.spaces[spaceId],
    );
    savedSite(ctx, site);
    return reply.code(201).send(renderSection({ ctx, caller, site }, section));
  });

  app.delete<{ Params: SectionParams }>(
    '/v1/orgs/:o/sites/:siteId/sections/:siteSectionId',
    async (request, reply) => {
      const { site } = requireNamedSite(ctx, request, SITE_WRITE_ROLE, 'deleting a site section');
      return answerSiteDeletion(
        ctx,
        reply,
        site,
        findSection(site, request.params.siteSectionId),
        removeSection,
      );
    },
  );

  app.patch<{ Params: SectionParams }>(
    '/v1/orgs/:o/sites/:siteId/sections/:siteSectionId',
    async (request) => {
      const { caller, site } = requireNamedSite(ctx, request, SITE_WRITE_ROLE, 'changing a site section');
      const section = requireSection(site, request.params.siteSectionId);
      const patch = parseInput(sectionPatch, request.body, 'body');
      if (
        patch.path !== undefined &&
        sectionsInOrder(site).some((other) => other !== section && other.path === patch.path)
      ) {
        throw conflict(`path: another section of the site already has the path ${patch.path}`);
      }
      const siteSpace =
        patch.defaultSiteSpace === undefined
          ? undefined
          : requireSiteSpace(ctx, site, patch.defaultSiteSpace);
      if (siteSpace !== undefined && siteSpace.sectionId !== section.id) {
        throw badRequest(`defaultSiteSpace: site space ${siteSpace.id} is not in section ${section.id}`);
      }
      if (patch.title !== undefined) section.title = patch.title;
      if (patch.path !== undefined) section.path = patch.path;
      if (siteSpace !== undefined) section.defaultSiteSpaceId = siteSpace.id;
      for (const key of ['condition', 'icon', 'description'] as const) {
        const value = patch[key];
        // null removes the member; omitted leaves it as it is.
        if (value === null) delete section[key];
        else if (value !== undefined) section[key] = value;
      }
      savedSite(ctx, site);
      return renderSection({ ctx, caller, site }, section);
    },
  );

  app.post<{ Params: SectionParams }>(
    '/v1/orgs/:o/sites/:siteId/sections/:siteSectionId/move',
    async (request) => {
      const { caller, site } = requireNamedSite(ctx, request, SITE_WRITE_ROLE, 'moving a site section');
      const section = requireSection(site, request.params.siteSectionId);
      const { position } = parseInput(sectionMove, request.body, 'body');
      const before =
        position?.before === undefined ? undefined : requireSection(site, position.before.siteSection);
      const after =
        position?.after === undefined ? undefined : requireSection(site, position.after.siteSection);
      // Next to a sibling in another group, the section joins that group; with no position it goes
      // to the end of the site, out of any group, as the document says.
      moveSiteNode(site, section, (before ?? after)?.groupId, { before, after });
      savedSite(ctx, site);
      return renderSection({ ctx, caller, site }, section);
    },
  );
}
