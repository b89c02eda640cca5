// Site sections, section groups and site spaces as the interface shows them. The default section
// sits at the site's address and the default variant at its section's, so published addresses are
// derived from the structure; site spaces whose space is gone for good are left out.
import type { Caller, EmulatorContext } from '../emulator-context.js';
import { spaceOfSiteSpace } from '../site-access.js';
import { childrenOf, defaultSection, isDefaultSiteSpace, siteSpacesIn } from '../site-structure.js';
import type {
  StoredSite,
  StoredSiteNode,
  StoredSiteSection,
  StoredSiteSectionGroup,
  StoredSiteSpace,
} from '../stored-sites.js';
import { publishedAddress } from './render-site.js';
import { renderSpace } from './render-space.js';

/** What rendering a part of a site needs: who asks, and the share key of share-link addresses. */
export interface SiteView {
  ctx: EmulatorContext;
  caller: Caller;
  site: StoredSite;
  shareKey?: string | undefined;
  /** Leave out site spaces whose space is deleted (the published view). */
  liveOnly?: boolean;
}

function sectionAddress(view: SiteView, section: StoredSiteSection): string | undefined {
  const base = publishedAddress(view.ctx, view.site, view.shareKey);
  if (base === undefined) return undefined;
  return defaultSection(view.site)?.id === section.id ? base : `${base}/${section.path}`;
}

/** The site spaces of a section (or of the top level) that are shown. */
export function shownSiteSpaces(view: SiteView, sectionId: string | undefined): StoredSiteSpace[] {
  return siteSpacesIn(view.site, sectionId).filter((siteSpace) => {
    const space = spaceOfSiteSpace(view.ctx, siteSpace);
    return space !== undefined && (view.liveOnly !== true || space.deletedAt === undefined);
  });
}

export function renderSiteSpace(view: SiteView, siteSpace: StoredSiteSpace) {
  const { ctx, site } = view;
  const space = spaceOfSiteSpace(ctx, siteSpace);
  // Routes never render a site space whose space is gone; a missing one is a bug, not a 404.
  if (space === undefined)
    throw new Error(`space ${siteSpace.spaceId} of site space ${siteSpace.id} is gone`);
  const isDefault = isDefaultSiteSpace(site, siteSpace);
  const section =
    siteSpace.sectionId === undefined
      ? undefined
      : site.nodes.find((node): node is StoredSiteSection => node.id === siteSpace.sectionId);
  const base =
    section === undefined ? publishedAddress(ctx, site, view.shareKey) : sectionAddress(view, section);
  const published = base === undefined || isDefault ? base : `${base}/${siteSpace.path}`;
  return {
    object: 'site-space' as const,
    id: siteSpace.id,
    path: siteSpace.path,
    ...(siteSpace.sectionId === undefined ? {} : { section: siteSpace.sectionId }),
    space: renderSpace(ctx, view.caller, space),
    title: space.title,
    default: isDefault,
    ...(siteSpace.condition === undefined ? {} : { condition: siteSpace.condition }),
    urls: published === undefined ? {} : { published },
  };
}

export function renderSection(view: SiteView, section: StoredSiteSection) {
  const published = sectionAddress(view, section);
  return {
    object: 'site-section' as const,
    id: section.id,
    title: section.title,
    ...(section.description === undefined ? {} : { description: section.description }),
    default: defaultSection(view.site)?.id === section.id,
    path: section.path,
    ...(section.condition === undefined ? {} : { condition: section.condition }),
    ...(section.groupId === undefined ? {} : { sectionGroup: section.groupId }),
    ...(section.icon === undefined ? {} : { icon: section.icon }),
    siteSpaces: shownSiteSpaces(view, section.id).map((siteSpace) => renderSiteSpace(view, siteSpace)),
    urls: published === undefined ? {} : { published },
  };
}

export type RenderedSection = ReturnType<typeof renderSection>;

export interface RenderedGroup {
  object: 'site-section-group';
  id: string;
  title: string;
  icon?: string;
  sectionGroup?: string;
  sections: RenderedSection[];
  children: Array<RenderedSection | RenderedGroup>;
}

export function renderNode(view: SiteView, node: StoredSiteNode): RenderedSection | RenderedGroup {
  return node.kind === 'section' ? renderSection(view, node) : renderGroup(view, node);
}

export function renderGroup(view: SiteView, group: StoredSiteSectionGroup): RenderedGroup {
  const children = childrenOf(view.site, group.id).map((node) => renderNode(view, node));
  return {
    object: 'site-section-group',
    id: group.id,
    title: group.title,
    ...(group.icon === undefined ? {} : { icon: group.icon }),
    ...(group.groupId === undefined ? {} : { sectionGroup: group.groupId }),
    // `sections` is the document's older member: the sections directly in the group.
    sections: children.filter((child): child is RenderedSection => child.object === 'site-section'),
    children,
  };
}
