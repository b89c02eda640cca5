// Site section groups: list in site order, create (at the end of the site or of a parent group,
// taking the sections named), patch, delete (its content takes its place), add and remove a section,
// and move among sections and groups. Deletes answer 205, or 204 when there was nothing to delete,
// as the document says.
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../access.js';
import type { EmulatorContext } from '../emulator-context.js';
import { badRequest } from '../emulator-http-error.js';
import { newId } from '../ids.js';
import { orderedPageOf } from '../ordered-page.js';
import { parseInput } from '../parse-input.js';
import { renderGroup } from '../render/render-site-structure.js';
import {
  findGroup,
  requireGroup,
  requireSection,
  requireSite,
  SITE_WRITE_ROLE,
  type SiteParams,
  savedSite,
} from '../site-access.js';
import { isWithinGroup, removeGroup } from '../site-edits.js';
import { groupCreate, groupMove, groupPatch, groupSectionAdd, listQuery } from '../site-inputs.js';
import { placeInOrder } from '../site-order.js';
import { nodesInOrder } from '../site-structure.js';
import type { StoredSite, StoredSiteNode, StoredSiteSectionGroup } from '../stored-sites.js';

type GroupParams = SiteParams & { siteSectionGroupId: string };

const sameContainer = (a: StoredSiteNode, b: StoredSiteNode) => a.groupId === b.groupId;

/** Puts `node` into `groupId` (the top level when undefined), next to `anchor` or last. */
function moveNode(
  site: StoredSite,
  node: StoredSiteNode,
  groupId: string | undefined,
  placement: { before?: StoredSiteNode | undefined; after?: StoredSiteNode | undefined },
): void {
  placeInOrder(site.nodes, node, placement, sameContainer);
  if (groupId === undefined) delete node.groupId;
  else node.groupId = groupId;
}

export function registerSiteSectionGroupRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const base = '/v1/orgs/:o/sites/:siteId/section-groups';

  app.get<{ Params: SiteParams }>(base, async (request) => {
    const caller = callerOf(request);
    const { site } = requireSite(ctx, caller, request.params, 'read', 'listing site section groups');
    const query = parseInput(listQuery, request.query, 'query');
    const groups = nodesInOrder(site).filter((node): node is StoredSiteSectionGroup => node.kind === 'group');
    return orderedPageOf(groups, query, (group) => renderGroup({ ctx, caller, site }, group));
  });

  app.post<{ Params: SiteParams }>(base, async (request, reply) => {
    const caller = callerOf(request);
    const { site } = requireSite(ctx, caller, request.params, SITE_WRITE_ROLE, 'adding a section group');
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
    for (const section of sections) moveNode(site, section, group.id, {});
    savedSite(ctx, site);
    return reply.code(201).send(renderGroup({ ctx, caller, site }, group));
  });

  app.patch<{ Params: GroupParams }>(`${base}/:siteSectionGroupId`, async (request) => {
    const caller = callerOf(request);
    const { site } = requireSite(ctx, caller, request.params, SITE_WRITE_ROLE, 'changing a section group');
    const group = requireGroup(site, request.params.siteSectionGroupId);
    const patch = parseInput(groupPatch, request.body, 'body');
    if (patch.title !== undefined) group.title = patch.title;
    if (patch.icon === null) delete group.icon;
    else if (patch.icon !== undefined) group.icon = patch.icon;
    savedSite(ctx, site);
    return renderGroup({ ctx, caller, site }, group);
  });

  app.delete<{ Params: GroupParams }>(`${base}/:siteSectionGroupId`, async (request, reply) => {
    const { site } = requireSite(
      ctx,
      callerOf(request),
      request.params,
      SITE_WRITE_ROLE,
      'deleting a section group',
    );
    const group = findGroup(site, request.params.siteSectionGroupId);
    if (group === undefined) return reply.code(204).send();
    removeGroup(site, group);
    savedSite(ctx, site);
    return reply.code(205).send();
  });

  app.post<{ Params: GroupParams }>(`${base}/:siteSectionGroupId/sections`, async (request, reply) => {
    const caller = callerOf(request);
    const { site } = requireSite(ctx, caller, request.params, SITE_WRITE_ROLE, 'adding a section to a group');
    const group = requireGroup(site, request.params.siteSectionGroupId);
    const { sectionId } = parseInput(groupSectionAdd, request.body, 'body');
    moveNode(site, requireSection(site, sectionId), group.id, {});
    savedSite(ctx, site);
    return reply.code(201).send(renderGroup({ ctx, caller, site }, group));
  });

  app.delete<{ Params: GroupParams & { siteSectionId: string } }>(
    `${base}/:siteSectionGroupId/sections/:siteSectionId`,
    async (request, reply) => {
      const { site } = requireSite(
        ctx,
        callerOf(request),
        request.params,
        SITE_WRITE_ROLE,
        'removing a section from a group',
      );
      const group = requireGroup(site, request.params.siteSectionGroupId);
      const section = site.nodes.find(
        (node) =>
          node.kind === 'section' && node.id === request.params.siteSectionId && node.groupId === group.id,
      );
      if (section === undefined) return reply.code(204).send();
      // Out of the group, the section stands right after it.
      moveNode(site, section, group.groupId, { after: group });
      savedSite(ctx, site);
      return reply.code(205).send();
    },
  );

  app.post<{ Params: GroupParams }>(`${base}/:siteSectionGroupId/move`, async (request) => {
    const caller = callerOf(request);
    const { site } = requireSite(ctx, caller, request.params, SITE_WRITE_ROLE, 'moving a section group');
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
    moveNode(site, group, (before ?? after)?.groupId, { before, after });
    savedSite(ctx, site);
    return renderGroup({ ctx, caller, site }, group);
  });
}
