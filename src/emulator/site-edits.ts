// Changes to a site's structure that keep it whole: a site has either sections (every site space in
// one) or none (every site space at the top level); a section keeps at least one site space; groups
// only ever hold sections and groups. Defaults need no repair: they fall back to the first in order.
import { badRequest, conflict } from './emulator-http-error.js';
import type { StoredSpace } from './emulator-state.js';
import { newId } from './ids.js';
import {
  childrenOf,
  defaultSiteSpaceIn,
  hasSections,
  nodesInOrder,
  siteSpacesIn,
  slugOf,
  uniquePath,
} from './site-structure.js';
import type {
  StoredSite,
  StoredSiteSection,
  StoredSiteSectionGroup,
  StoredSiteSpace,
} from './stored-sites.js';

const SECTION_TITLE_MIN = 2;
const SECTION_TITLE_AT_CREATION_MAX = 64;

/** A new site space for `space` in `sectionId` (or at the top level), last there, its path unique. */
export function addSiteSpace(
  site: StoredSite,
  space: StoredSpace,
  sectionId: string | undefined,
): StoredSiteSpace {
  const siblings = siteSpacesIn(site, sectionId);
  if (siblings.some((siteSpace) => siteSpace.spaceId === space.id)) {
    throw conflict(
      `space ${space.id} is already in ${sectionId === undefined ? 'the site' : `section ${sectionId}`}`,
    );
  }
  const siteSpace: StoredSiteSpace = {
    id: newId('sitesp_'),
    spaceId: space.id,
    path: uniquePath(
      slugOf(space.title, 'space'),
      siblings.map((sibling) => sibling.path),
    ),
    ...(sectionId === undefined ? {} : { sectionId }),
  };
  site.siteSpaces.push(siteSpace);
  return siteSpace;
}

/** A title for a section made of a space's: within the limits of a section title at creation. */
function sectionTitleOf(space: StoredSpace): string {
  const title = space.title.trim().slice(0, SECTION_TITLE_AT_CREATION_MAX);
  return title.length >= SECTION_TITLE_MIN ? title : 'Section';
}

function newSection(site: StoredSite, title: string): StoredSiteSection {
  const paths = site.nodes.flatMap((node) => (node.kind === 'section' ? [node.path] : []));
  return { kind: 'section', id: newId('sitesc_'), title, path: uniquePath(slugOf(title, 'section'), paths) };
}

/**
 * A new section at the end of the top level with `space` as its first variant. The first section of
 * a site that has site spaces at its top level first gathers them into a section of their own (the
 * site's default), as the service turns a site's existing content into its first section.
 */
export function createSection(
  site: StoredSite,
  space: StoredSpace,
  options: { title?: string | undefined; icon?: string | undefined },
  spaceOf: (spaceId: string) => StoredSpace | undefined,
): StoredSiteSection {
  if (!hasSections(site)) {
    const existing = siteSpacesIn(site, undefined);
    const lead = defaultSiteSpaceIn(site, undefined);
    const leadSpace = lead === undefined ? undefined : spaceOf(lead.spaceId);
    if (existing.length > 0 && leadSpace !== undefined) {
      const gathered = newSection(site, sectionTitleOf(leadSpace));
      if (lead !== undefined) gathered.defaultSiteSpaceId = lead.id;
      site.nodes.push(gathered);
      for (const siteSpace of existing) siteSpace.sectionId = gathered.id;
      site.defaultSectionId = gathered.id;
      delete site.defaultSiteSpaceId;
    }
  }
  const section = newSection(site, options.title ?? sectionTitleOf(space));
  if (options.icon !== undefined) section.icon = options.icon;
  site.nodes.push(section);
  site.defaultSectionId ??= section.id;
  addSiteSpace(site, space, section.id);
  return section;
}

/** Removes a section with its site spaces. */
export function removeSection(site: StoredSite, section: StoredSiteSection): void {
  site.nodes = site.nodes.filter((node) => node !== section);
  site.siteSpaces = site.siteSpaces.filter((siteSpace) => siteSpace.sectionId !== section.id);
}

/** Removes a group; what it held takes its place in its own container, in the same order. */
export function removeGroup(site: StoredSite, group: StoredSiteSectionGroup): void {
  const content = childrenOf(site, group.id);
  for (const node of content) {
    if (group.groupId === undefined) delete node.groupId;
    else node.groupId = group.groupId;
  }
  const rest = site.nodes.filter((node) => !content.includes(node));
  rest.splice(rest.indexOf(group), 1, ...content);
  site.nodes = rest;
}

/** Removes a site space; the last one of a section cannot go (the section goes instead). */
export function removeSiteSpace(site: StoredSite, siteSpace: StoredSiteSpace): void {
  if (siteSpace.sectionId !== undefined && siteSpacesIn(site, siteSpace.sectionId).length === 1) {
    throw badRequest(
      `siteSpaceId: ${siteSpace.id} is the last site space of section ${siteSpace.sectionId}; delete the section instead`,
    );
  }
  site.siteSpaces = site.siteSpaces.filter((other) => other !== siteSpace);
}

/** True when `node` is `group` or inside it, at any depth. */
export function isWithinGroup(
  site: StoredSite,
  node: { id: string },
  group: StoredSiteSectionGroup,
): boolean {
  return node.id === group.id || nodesInOrder(site, group.id).some((inner) => inner.id === node.id);
}
