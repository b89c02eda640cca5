// Section groups of a site: created (taking sections), renamed, moved among sections and groups,
// deleted (their sections stay), and sections added to and removed from them.
import { type ApiPath, apiPath } from './api-path.js';
import type { CallOptions, ListAllOptions, ListOptions } from './call-options.js';
import type { HttpTransport } from './http-transport.js';
import { PagedList } from './paged-list.js';
import { type Page, pageOf } from './schemas/page-of.js';
import { type SiteSectionGroup, siteSectionGroupSchema } from './schemas/site-section-group-schema.js';
import { DELETED_STATUSES, noContentSchema, sitePath } from './site-path.js';

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

function groupsPath(orgId: string, siteId: string, groupId?: string): ApiPath {
  const base = apiPath`${sitePath(orgId, siteId)}/section-groups`;
  return groupId === undefined ? base : apiPath`${base}/${groupId}`;
}

export class SiteSectionGroupsApi {
  private readonly groups: PagedList<Page<SiteSectionGroup>>;

  constructor(private readonly transport: HttpTransport) {
    this.groups = new PagedList(transport, pageOf(siteSectionGroupSchema));
  }

  /** `GET .../section-groups`, in site order. */
  list(orgId: string, siteId: string, options: ListOptions = {}): Promise<Page<SiteSectionGroup>> {
    return this.groups.page(groupsPath(orgId, siteId), options);
  }

  listAll(
    orgId: string,
    siteId: string,
    options: ListAllOptions<ListOptions> = {},
  ): AsyncGenerator<SiteSectionGroup, void, undefined> {
    return this.groups.all(groupsPath(orgId, siteId), options);
  }

  /** `POST .../section-groups`: 201. */
  create(
    orgId: string,
    siteId: string,
    group: SiteSectionGroupCreate,
    options: CallOptions = {},
  ): Promise<SiteSectionGroup> {
    return this.transport.request('POST', groupsPath(orgId, siteId), {
      body: group,
      signal: options.signal,
      schema: siteSectionGroupSchema,
    });
  }

  /** `PATCH .../section-groups/{siteSectionGroupId}`. */
  update(
    orgId: string,
    siteId: string,
    groupId: string,
    changes: SiteSectionGroupPatch,
    options: CallOptions = {},
  ): Promise<SiteSectionGroup> {
    return this.transport.request('PATCH', groupsPath(orgId, siteId, groupId), {
      body: changes,
      signal: options.signal,
      schema: siteSectionGroupSchema,
    });
  }

  /** `DELETE .../section-groups/{siteSectionGroupId}`: what it held takes its place. */
  async delete(orgId: string, siteId: string, groupId: string, options: CallOptions = {}): Promise<void> {
    await this.transport.request('DELETE', groupsPath(orgId, siteId, groupId), {
      signal: options.signal,
      schema: noContentSchema,
      expect: DELETED_STATUSES,
    });
  }

  /** `POST .../section-groups/{siteSectionGroupId}/sections`: 201, the section last in the group. */
  addSection(
    orgId: string,
    siteId: string,
    groupId: string,
    sectionId: string,
    options: CallOptions = {},
  ): Promise<SiteSectionGroup> {
    return this.transport.request('POST', apiPath`${groupsPath(orgId, siteId, groupId)}/sections`, {
      body: { sectionId },
      signal: options.signal,
      schema: siteSectionGroupSchema,
    });
  }

  /** `DELETE .../section-groups/{siteSectionGroupId}/sections/{siteSectionId}`: the section stays. */
  async removeSection(
    orgId: string,
    siteId: string,
    groupId: string,
    sectionId: string,
    options: CallOptions = {},
  ): Promise<void> {
    await this.transport.request(
      'DELETE',
      apiPath`${groupsPath(orgId, siteId, groupId)}/sections/${sectionId}`,
      {
        signal: options.signal,
        schema: noContentSchema,
        expect: DELETED_STATUSES,
      },
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
    const body = position.before === undefined && position.after === undefined ? {} : { position };
    return this.transport.request('POST', apiPath`${groupsPath(orgId, siteId, groupId)}/move`, {
      body,
      signal: options.signal,
      schema: siteSectionGroupSchema,
    });
  }
}
