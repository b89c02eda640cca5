// Reading a site's structure: sections and groups in site order (a group's content where the group
// stands), the site spaces of a container (a section, or the top level of a site without sections),
// and the defaults, which fall back to the first in order so that they are never dangling.
import type { StoredSite, StoredSiteNode, StoredSiteSection, StoredSiteSpace } from './stored-sites.js';

const PATH_MAX = 100;

/** The children of a group, or of the top level when `groupId` is undefined, in order. */
export function childrenOf(site: StoredSite, groupId: string | undefined): StoredSiteNode[] {
  return site.nodes.filter((node) => node.groupId === groupId);
}

/** Every section and group, depth first: each group followed by its content. */
export function nodesInOrder(site: StoredSite, groupId?: string): StoredSiteNode[] {
  return childrenOf(site, groupId).flatMap((node) =>
    node.kind === 'group' ? [node, ...nodesInOrder(site, node.id)] : [node],
  );
}

export function sectionsInOrder(site: StoredSite): StoredSiteSection[] {
  return nodesInOrder(site).filter((node): node is StoredSiteSection => node.kind === 'section');
}

export function hasSections(site: StoredSite): boolean {
  return site.nodes.some((node) => node.kind === 'section');
}

export function defaultSection(site: StoredSite): StoredSiteSection | undefined {
  const sections = sectionsInOrder(site);
  return sections.find((section) => section.id === site.defaultSectionId) ?? sections[0];
}

/** The site spaces of a section, or of the top level when `sectionId` is undefined, in order. */
export function siteSpacesIn(site: StoredSite, sectionId: string | undefined): StoredSiteSpace[] {
  return site.siteSpaces.filter((siteSpace) => siteSpace.sectionId === sectionId);
}

/** Site spaces section by section in site order (or the top level's), each section's in order. */
export function siteSpacesInOrder(site: StoredSite): StoredSiteSpace[] {
  if (!hasSections(site)) return siteSpacesIn(site, undefined);
  return sectionsInOrder(site).flatMap((section) => siteSpacesIn(site, section.id));
}

export function defaultSiteSpaceIn(
  site: StoredSite,
  sectionId: string | undefined,
): StoredSiteSpace | undefined {
  const candidates = siteSpacesIn(site, sectionId);
  const wanted =
    sectionId === undefined
      ? site.defaultSiteSpaceId
      : site.nodes.find((node): node is StoredSiteSection => node.id === sectionId && node.kind === 'section')
          ?.defaultSiteSpaceId;
  return candidates.find((siteSpace) => siteSpace.id === wanted) ?? candidates[0];
}

/** True for the default variant of its section (or the default of a site without sections). */
export function isDefaultSiteSpace(site: StoredSite, siteSpace: StoredSiteSpace): boolean {
  return defaultSiteSpaceIn(site, siteSpace.sectionId)?.id === siteSpace.id;
}

/** A path segment made of a title: `Release 2.1` -> `release-2-1`; `fallback` when nothing is left. */
export function slugOf(text: string, fallback: string): string {
  const slug = text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, PATH_MAX)
    .replace(/-+$/, '');
  return slug === '' ? fallback : slug;
}

/** `wanted`, or `wanted-2`, `wanted-3`... : the first not `taken`, within the path limit. */
export function uniquePath(wanted: string, taken: readonly string[]): string {
  if (!taken.includes(wanted)) return wanted;
  for (let n = 2; ; n += 1) {
    const suffix = `-${n}`;
    const candidate = `${wanted.slice(0, PATH_MAX - suffix.length)}${suffix}`;
    if (!taken.includes(candidate)) return candidate;
  }
}
