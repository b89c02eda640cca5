// Site section groups: list in site order, create (at the end of the site or of a parent group,
// taking the sections named), patch, delete (its content takes its place), add and remove a section,
// and move among sections and groups. Deletes answer 205, or 204 when there was nothing to delete,
// as the document says.
import type { FastifyInstance } from 'fastify';
import { answerSiteDeletion } from '../answer-site-deletion.js';
import type { EmulatorContext } from '../emulator-context.js';
import { badRequest } from '../emulator-http-error.js';
import { newId } from '../ids.js';
import { moveSiteNode } from '../move-site-node.js';
import { orderedPageOf } from '../ordered-page.js';
import { parseInput } from '../parse-input.js';
import { renderGroup } from '../render/render-site-structure.js';
import { requireNamedSite } from '../require-named-site.js';
import {
  findGroup,
  requireGroup,
  requireSection,
  SITE_WRITE_ROLE,
  type SiteParams,
  savedSite,
} from '../site-access.js';
import { isWithinGroup, removeGroup } from '../site-edits.js';
import { groupCreate, groupMove, groupPatch, groupSectionAdd, listQuery } from '../site-inputs.js';
import { nodesInOrder } from '../site-structure.js';
import type { StoredSiteSectionGroup } from '../stored-sites.js';

type GroupParams = SiteParams & { siteSectionGroupId: string };

export function registerSiteSectionGroupRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const base = '/v1/orgs/:o/sites/:siteId/section-groups';

  app.get<{ Params: SiteParams }>(base, async (request) => {
    const { caller, site } = requireNamedSite(ctx, request, 'read', 'listing site section groups');
    const query = parseInput(listQuery, request.query, 'query');
    const groups = nodesInOrder(site).filter((node): node is StoredSiteSectionGroup => node.kind === 'group');
    return orderedPageOf(groups, query, (group) => renderGroup({ ctx, caller, site }, group));
  });

  app.post<{ Params: SiteParams }>(base, async (request, reply) => {
    const { caller, site } = requireNamedSite(ctx, request, SITE_WRITE_ROLE, 'adding a section group');
    const body = parseInput(groupCreate, request.body, 'body');
    const parent = body.parent === undefined ? undefined : requireGroup(site, body.parent);
    const sections = [...new Set(body.sections ?? [])].map((id) => requireSection(site, id));
    const group: StoredSiteSectionGroup = {
      kind: 'group',
      id: newId('sitesg_'),
      title: body.title,
      ...(body.icon === undefined || body.icon === null ? {} : { icon: body.icon }),
      ...(parent === undefined ? {} : { groupId: parent.id }),
    };
    site.nodes.push(group);
    for (const section of sections) moveSiteNode(site, section, group.id, {});
    savedSite(ctx, site);
    return reply.code(201).send(renderGroup({ ctx, caller, site }, group));
  });

  app.patch<{ Params: GroupParams }>(`${base}/:siteSectionGroupId`, async (request) => {
    const { caller, site } = requireNamedSite(ctx, request, SITE_WRITE_ROLE, 'changing a section group');
    const group = requireGroup(site, request.params.siteSectionGroupId);
    const patch = parseInput(groupPatch, request.body, 'body');
    if (patch.title !== undefined) group.title = patch.title;
    if (patch.icon === null) delete group.icon;
    else if (patch.icon !== undefined) group.icon = patch.icon;
    savedSite(ctx, site);
    return renderGroup({ ctx, caller, site }, group);
  });

  app.delete<{ Params: GroupParams }>(`${base}/:siteSectionGroupId`, async (request, reply) => {
    const { site } = requireNamedSite(ctx, request, SITE_WRITE_ROLE, 'deleting a section group');
    return answerSiteDeletion(
      ctx,
      reply,
      site,
      findGroup(site, request.params.siteSectionGroupId),
      removeGroup,
    );
  });

  app.post<{ Params: GroupParams }>(`${base}/:siteSectionGroupId/sections`, async (request, reply) => {
    const { caller, site } = requireNamedSite(ctx, request, SITE_WRITE_ROLE, 'adding a section to a group');
    const group = requireGroup(site, request.params.siteSectionGroupId);
    const { sectionId } = parseInput(groupSectionAdd, request.body, 'body');
    moveSiteNode(site, requireSection(site, sectionId), group.id, {});
    savedSite(ctx, site);
    return reply.code(201).send(renderGroup({ ctx, caller, site }, group));
  });

  app.delete<{ Params: GroupParams & { siteSectionId: string } }>(
    `${base}/:siteSectionGroupId/sections/:siteSectionId`,
    async (request, reply) => {
      const { site } = requireNamedSite(ctx, request, SITE_WRITE_ROLE, 'removing a section from a group');
      const group = requireGroup(site, request.params.siteSectionGroupId);
      const section = site.nodes.find(
        (node) =>
          node.kind === 'section' && node.id === request.params.siteSectionId && node.groupId === group.id,
      );
      // Out of the group, the section stands right after it.
      return answerSiteDeletion(ctx, reply, site, section, (_, found) =>
        moveSiteNode(site, found, group.groupId, { after: group }),
      );
    },
  );

  app.post<{ Params: GroupParams }>(`${base}/:siteSectionGroupId/move`, async (request) => {
    const { caller, site } = requireNamedSite(ctx, request, SITE_WRITE_ROLE, 'moving a section group');
    const group = requireGroup(site, request.params.siteSectionGroupId);
    const { position } = parseInput(groupMove, request.body, 'body');
    const anchorOf = (pointer: { type: 'site-section' | 'site-section-group'; id: string } | undefined) =>
      pointer === undefined
        ? undefined
        : pointer.type === 'site-section'
          ? requireSection(site, pointer.id)
          : requireGroup(site, pointer.id);
    const before = anchorOf(position?.before);
    const after = anchorOf(position?.after);
    for (const anchor of [before, after]) {
      if (anchor !== undefined && anchor !== group && isWithinGroup(site, anchor, group))
        throw badRequest('position: a group cannot be moved into itself');
    }
    moveSiteNode(site, group, (before ?? after)?.groupId, { before, after });
    savedSite(ctx, site);
    return renderGroup({ ctx, caller, site }, group);
  });
}
