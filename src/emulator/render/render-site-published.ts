// The published view of a site: what its audience would see, derived from its structure. Site
// spaces of deleted spaces are left out, then sections left without variants and groups left
// without sections. A site without sections is published as its list of site spaces. The site's
// customization is the service's defaults (the local service keeps no customization), titled after
// the site.
import { childrenOf, hasSections } from '../site-structure.js';
import type { StoredSiteNode } from '../stored-sites.js';
import { renderSite } from './render-site.js';
import {
  type RenderedGroup,
  type RenderedSection,
  renderSection,
  renderSiteSpace,
  type SiteView,
  shownSiteSpaces,
} from './render-site-structure.js';

const color = (hex: string) => ({ light: hex, dark: hex });

/** The service's default customization of a site, as a new site has it. */
export function defaultCustomization(title: string) {
  return {
    title,
    styling: {
      theme: 'clean',
      primaryColor: color('#346DDB'),
      infoColor: color('#787878'),
      successColor: color('#02C39A'),
      warningColor: color('#FCB414'),
      dangerColor: color('#FB4F4F'),
      corners: 'rounded',
      depth: 'subtle',
      links: 'default',
      font: 'Inter',
      monospaceFont: 'IBMPlexMono',
      background: 'plain',
      icons: 'regular',
      sidebar: { background: 'default', list: 'default' },
      search: 'subtle',
    },
    internationalization: { locale: 'en' },
    favicon: {},
    header: { preset: 'default', links: [] },
    footer: { groups: [] },
    themes: { default: 'light', toggeable: true },
    pdf: { enabled: true },
    feedback: { enabled: false },
    ai: { mode: 'search' },
    advancedCustomization: { enabled: false },
    trademark: { enabled: true },
    externalLinks: { target: 'self' },
    pagination: { enabled: true },
    pageActions: { externalAI: true, markdown: true, mcp: true },
    git: { showEditLink: false },
    privacyPolicy: {},
    socialPreview: {},
    insights: { trackingCookie: true },
  };
}

function publishedNodes(view: SiteView, groupId: string | undefined): Array<RenderedSection | RenderedGroup> {
  return childrenOf(view.site, groupId).flatMap(
    (node: StoredSiteNode): Array<RenderedSection | RenderedGroup> => {
      if (node.kind === 'section') {
        return shownSiteSpaces(view, node.id).length === 0 ? [] : [renderSection(view, node)];
      }
      const children = publishedNodes(view, node.id);
      if (children.length === 0) return [];
      const group: RenderedGroup = {
        object: 'site-section-group',
        id: node.id,
        title: node.title,
        ...(node.icon === undefined ? {} : { icon: node.icon }),
        ...(node.groupId === undefined ? {} : { sectionGroup: node.groupId }),
        sections: children.filter((child): child is RenderedSection => child.object === 'site-section'),
        children,
      };
      return [group];
    },
  );
}

export function renderPublishedSite(view: Omit<SiteView, 'liveOnly'>) {
  const live: SiteView = { ...view, liveOnly: true };
  const structure = hasSections(view.site)
    ? { type: 'sections' as const, structure: publishedNodes(live, undefined) }
    : {
        type: 'siteSpaces' as const,
        structure: shownSiteSpaces(live, undefined).map((siteSpace) => renderSiteSpace(live, siteSpace)),
      };
  return {
    object: 'published-content-site' as const,
    site: renderSite(view.ctx, view.site, view.shareKey),
    structure,
    customizations: { site: defaultCustomization(view.site.title), siteSpaces: {} },
    scripts: [],
  };
}
