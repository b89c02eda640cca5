// Section groups of a site: created (taking sections), renamed, moved among sections and groups,
// deleted (their sections stay), and sections added to and removed from them.
import { apiPath } from './api-path.js';
import type { CallOptions, ListAllOptions, ListOptions } from './call-options.js';
import type { HttpTransport } from './http-transport.js';
import { moveBody } from './move-body.js';
import type { Page } from './schemas/page-of.js';
import { type SiteSectionGroup, siteSectionGroupSchema } from './schemas/site-section-group-schema.js';
import { SitePartCalls } from './site-part-calls.js';
import { sitePath } from './site-path.js';

export interface SiteSectionGroupCreate {
  /** 1 to 100 characters. */
  title: string;
  icon?: string | null;
  /** Sections moved into the group, in this order. */
  sections?: readonly string[];
  /** The group to nest it in; the top level of the site when absent. */
  parent?: string;
}

export interface SiteSectionGroupPatch {
  title?: string;
  icon?: string | null;
}

/** A sibling of a group: a section or another group. */
export interface SiteStructurePointer {
  type: 'site-section' | 'site-section-group';
  id: string;
}

/** Where a group goes: before and/or after siblings; the end of the site when neither. */
export interface SiteSectionGroupPosition {
  before?: SiteStructurePointer;
  after?: SiteStructurePointer;
}

export class SiteSectionGroupsApi {
  private readonly groups: SitePartCalls<SiteSectionGroup>;

  constructor(transport: HttpTransport) {
    this.groups = new SitePartCalls(
      transport,
      (orgId, siteId) => apiPath`${sitePath(orgId, siteId)}/section-groups`,
      siteSectionGroupSchema,
    );
  }

  /** `GET .../section-groups`, in site order. */
  list(orgId: string, siteId: string, options: ListOptions = {}): Promise<Page<SiteSectionGroup>> {
    return this.groups.page(orgId, siteId, options);
  }

  listAll(
    orgId: string,
    siteId: string,
    options: ListAllOptions<ListOptions> = {},
  ): AsyncGenerator<SiteSectionGroup, void, undefined> {
    return this.groups.all(orgId, siteId, options);
  }

  /** `POST .../section-groups`: 201. */
  create(
    orgId: string,
    siteId: string,
    group: SiteSectionGroupCreate,
    options: CallOptions = {},
  ): Promise<SiteSectionGroup> {
    return this.groups.send('POST', this.groups.path(orgId, siteId), group, options);
  }

  /** `PATCH .../section-groups/{siteSectionGroupId}`. */
  update(
    orgId: string,
    siteId: string,
    groupId: string,
    changes: SiteSectionGroupPatch,
    options: CallOptions = {},
  ): Promise<SiteSectionGroup> {
    return this.groups.send('PATCH', this.groups.path(orgId, siteId, groupId), changes, options);
  }

  /** `DELETE .../section-groups/{siteSectionGroupId}`: what it held takes its place. */
  async delete(orgId: string, siteId: string, groupId: string, options: CallOptions = {}): Promise<void> {
    await this.groups.delete(this.groups.path(orgId, siteId, groupId), options);
  }

  /** `POST .../section-groups/{siteSectionGroupId}/sections`: 201, the section last in the group. */
  addSection(
    orgId: string,
    siteId: string,
    groupId: string,
    sectionId: string,
    options: CallOptions = {},
  ): Promise<SiteSectionGroup> {
    const path = apiPath`${this.groups.path(orgId, siteId, groupId)}/sections`;
    return this.groups.send('POST', path, { sectionId }, options);
  }

  /** `DELETE .../section-groups/{siteSectionGroupId}/sections/{siteSectionId}`: the section stays. */
  async removeSection(
    orgId: string,
    siteId: string,
    groupId: string,
    sectionId: string,
    options: CallOptions = {},
  ): Promise<void> {
    await this.groups.delete(
      apiPath`${this.groups.path(orgId, siteId, groupId)}/sections/${sectionId}`,
      options,
    );
  }

  /** `POST .../section-groups/{siteSectionGroupId}/move`. */
  move(
    orgId: string,
    siteId: string,
    groupId: string,
    position: SiteSectionGroupPosition = {},
    options: CallOptions = {},
  ): Promise<SiteSectionGroup> {
    const path = apiPath`${this.groups.path(orgId, siteId, groupId)}/move`;
    return this.groups.send(
      'POST',
      path,
      moveBody(position, (sibling) => sibling),
      options,
    );
  }
}
