// Finding what a site route names: the site in the organization (once the caller holds the role
// there, through requireOrg), its sections, groups and site spaces, and the spaces a body names,
// which must be live spaces of the same organization. Unknown ids are 404s naming them.
import { isPurged, requireOrg } from './access.js';
import type { Caller, EmulatorContext } from './emulator-context.js';
import { notFound } from './emulator-http-error.js';
import type { StoredOrg, StoredSpace } from './emulator-state.js';
import type { Role } from './roles.js';
import type {
  StoredSite,
  StoredSiteSection,
  StoredSiteSectionGroup,
  StoredSiteSpace,
} from './stored-sites.js';

/** Changing a site and its structure; deleting a whole site needs admin. */
export const SITE_WRITE_ROLE: Role = 'create';
export const SITE_DELETE_ROLE: Role = 'admin';

export interface SiteParams {
  o: string;
  siteId: string;
}

export function requireSite(
  ctx: EmulatorContext,
  caller: Caller,
  params: SiteParams,
  needed: Role,
  action: string,
): { org: StoredOrg; site: StoredSite } {
  const org = requireOrg(caller, params.o, needed, action);
  const site = ctx.state.sites[params.siteId];
  if (site === undefined || site.orgId !== org.id) throw notFound(`site ${params.siteId}`);
  return { org, site };
}

/** A space of the organization that is not deleted. */
export function requireOrgSpace(ctx: EmulatorContext, org: StoredOrg, spaceId: string): StoredSpace {
  const space = ctx.state.spaces[spaceId];
  if (space === undefined || space.orgId !== org.id || space.deletedAt !== undefined || isPurged(ctx, space))
    throw notFound(`space ${spaceId}`);
  return space;
}

export function findSection(site: StoredSite, id: string): StoredSiteSection | undefined {
  return site.nodes.find((node): node is StoredSiteSection => node.kind === 'section' && node.id === id);
}

export function requireSection(site: StoredSite, id: string): StoredSiteSection {
  const section = findSection(site, id);
  if (section === undefined) throw notFound(`site section ${id}`);
  return section;
}

export function findGroup(site: StoredSite, id: string): StoredSiteSectionGroup | undefined {
  return site.nodes.find((node): node is StoredSiteSectionGroup => node.kind === 'group' && node.id === id);
}

export function requireGroup(site: StoredSite, id: string): StoredSiteSectionGroup {
  const group = findGroup(site, id);
  if (group === undefined) throw notFound(`site section group ${id}`);
  return group;
}

/** A site space of the site whose space still exists (one deleted past its restore window is gone). */
export function requireSiteSpace(ctx: EmulatorContext, site: StoredSite, id: string): StoredSiteSpace {
  const siteSpace = site.siteSpaces.find((candidate) => candidate.id === id);
  if (siteSpace === undefined || spaceOfSiteSpace(ctx, siteSpace) === undefined)
    throw notFound(`site space ${id}`);
  return siteSpace;
}

/** The space behind a site space, unless it was deleted past its restore window (then it is gone). */
export function spaceOfSiteSpace(ctx: EmulatorContext, siteSpace: StoredSiteSpace): StoredSpace | undefined {
  const space = ctx.state.spaces[siteSpace.spaceId];
  return space === undefined || isPurged(ctx, space) ? undefined : space;
}

/** A change to the site stored. */
export function savedSite(ctx: EmulatorContext, site: StoredSite): void {
  site.updatedAt = ctx.now().toISOString();
  ctx.changed();
}
