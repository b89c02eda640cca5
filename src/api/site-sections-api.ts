// Sections of a site: each created with a space as its first variant, changed, moved among the
// sections, deleted with its site spaces.
import type { ApiPath } from './api-path.js';
import { apiPath } from './api-path.js';
import type { CallOptions, ListAllOptions, ListOptions } from './call-options.js';
import type { HttpTransport } from './http-transport.js';
import { PagedList } from './paged-list.js';
import { type Page, pageOf } from './schemas/page-of.js';
import { type SiteSection, siteSectionSchema } from './schemas/site-section-schema.js';
import { DELETED_STATUSES, noContentSchema, sitePath } from './site-path.js';

export interface SiteSectionListOptions extends ListOptions {
  /** Resolves the published addresses of a share-link site. */
  shareKey?: string | undefined;
}

export interface SiteSectionCreate {
  /** The space of its first variant. */
  spaceId: string;
  /** 2 to 64 characters; the space's title when absent. */
  title?: string | null;
  icon?: string | null;
}

/** Absent members stay as they are; null removes condition, icon and description. */
export interface SiteSectionPatch {
  title?: string;
  path?: string;
  /** The site space (of this section) that is its default variant. */
  defaultSiteSpace?: string;
  condition?: string | null;
  icon?: string | null;
  description?: string | null;
}

/** Where a section goes: before and/or after sibling sections (ids); the end of the site when neither. */
export interface SiteSectionPosition {
  before?: string;
  after?: string;
}

function sectionsPath(orgId: string, siteId: string, sectionId?: string): ApiPath {
  const base = apiPath`${sitePath(orgId, siteId)}/sections`;
  return sectionId === undefined ? base : apiPath`${base}/${sectionId}`;
}

const pointer = (siteSection: string) => ({ type: 'site-section' as const, siteSection });

export class SiteSectionsApi {
  private readonly sections: PagedList<Page<SiteSection>, SiteSectionListOptions>;

  constructor(private readonly transport: HttpTransport) {
    this.sections = new PagedList(transport, pageOf(siteSectionSchema), (options) => ({
      shareKey: options.shareKey,
    }));
  }

  /** `GET .../sections`, in site order. */
  list(orgId: string, siteId: string, options: SiteSectionListOptions = {}): Promise<Page<SiteSection>> {
    return this.sections.page(sectionsPath(orgId, siteId), options);
  }

  listAll(
    orgId: string,
    siteId: string,
    options: ListAllOptions<SiteSectionListOptions> = {},
  ): AsyncGenerator<SiteSection, void, undefined> {
    return this.sections.all(sectionsPath(orgId, siteId), options);
  }

  /** `POST .../sections`: 201, a section with the space as its variant. */
  create(
    orgId: string,
    siteId: string,
    section: SiteSectionCreate,
    options: CallOptions = {},
  ): Promise<SiteSection> {
    return this.transport.request('POST', sectionsPath(orgId, siteId), {
      body: section,
      signal: options.signal,
      schema: siteSectionSchema,
    });
  }

  /** `PATCH .../sections/{siteSectionId}`. */
  update(
    orgId: string,
    siteId: string,
    sectionId: string,
    changes: SiteSectionPatch,
    options: CallOptions = {},
  ): Promise<SiteSection> {
    return this.transport.request('PATCH', sectionsPath(orgId, siteId, sectionId), {
      body: changes,
      signal: options.signal,
      schema: siteSectionSchema,
    });
  }

  /** `DELETE .../sections/{siteSectionId}`, with its site spaces. */
  async delete(orgId: string, siteId: string, sectionId: string, options: CallOptions = {}): Promise<void> {
    await this.transport.request('DELETE', sectionsPath(orgId, siteId, sectionId), {
      signal: options.signal,
      schema: noContentSchema,
      expect: DELETED_STATUSES,
    });
  }

  /** `POST .../sections/{siteSectionId}/move`. */
  move(
    orgId: string,
    siteId: string,
    sectionId: string,
    position: SiteSectionPosition = {},
    options: CallOptions = {},
  ): Promise<SiteSection> {
    const body =
      position.before === undefined && position.after === undefined
        ? {}
        : {
            position: {
              ...(position.before === undefined ? {} : { before: pointer(position.before) }),
              ...(position.after === undefined ? {} : { after: pointer(position.after) }),
            },
          };
    return this.transport.request('POST', apiPath`${sectionsPath(orgId, siteId, sectionId)}/move`, {
      body,
      signal: options.signal,
      schema: siteSectionSchema,
    });
  }
}
