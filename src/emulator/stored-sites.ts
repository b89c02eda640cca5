// Sites of the local service as they are kept: each site holds its whole structure (sections, section
// groups, site spaces) so that order is the order of its arrays and a site is written and removed as
// one record. The state keeps them in `sites`, keyed by id.
import type { SiteAgentsContext, SiteType, SiteVisibility } from '../api/schemas/site-enums.js';

/** A section of the site: its content is the site spaces (variants) whose `sectionId` is its id. */
export interface StoredSiteSection {
  kind: 'section';
  id: string;
  title: string;
  path: string;
  description?: string;
  condition?: string;
  icon?: string;
  /** The group holding it; absent at the top level of the site. */
  groupId?: string;
  /** Its default variant; the first of its site spaces when absent or gone. */
  defaultSiteSpaceId?: string;
}

export interface StoredSiteSectionGroup {
  kind: 'group';
  id: string;
  title: string;
  icon?: string;
  /** The group holding it (groups nest, as the public document allows); absent at the top level. */
  groupId?: string;
}

export type StoredSiteNode = StoredSiteSection | StoredSiteSectionGroup;

/** A space published in the site, at the top level (a site without sections) or in a section. */
export interface StoredSiteSpace {
  id: string;
  spaceId: string;
  path: string;
  sectionId?: string;
  condition?: string;
}

export interface StoredSiteAdaptiveSchema {
  jsonSchema: Record<string, unknown>;
  updatedAt: string;
}

export interface StoredSite {
  id: string;
  seq: number;
  orgId: string;
  type: SiteType;
  title: string;
  visibility: SiteVisibility;
  /** Live to its audience. The interface gives no move of it; the document's publish/unpublish do. */
  published: boolean;
  createdAt: string;
  updatedAt: string;
  basename?: string;
  /** The proxy origin, such as `company.com/docs`. */
  proxy?: string;
  adaptiveContent: boolean;
  agentsContext: SiteAgentsContext;
  adaptiveSchema?: StoredSiteAdaptiveSchema;
  /** The default section; the first section in site order when absent or gone. */
  defaultSectionId?: string;
  /** The default site space of a site without sections; the first one when absent or gone. */
  defaultSiteSpaceId?: string;
  /** Sections and groups in site order; a node's place among its siblings is its place here. */
  nodes: StoredSiteNode[];
  /** Site spaces in site order, the same way. */
  siteSpaces: StoredSiteSpace[];
}
