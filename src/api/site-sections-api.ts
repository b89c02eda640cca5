// Sections of a site: each created with a space as its first variant, changed, moved among the
// sections, deleted with its site spaces.
import { apiPath } from './api-path.js';
import type { CallOptions, ListAllOptions, ListOptions } from './call-options.js';
import type { HttpTransport } from './http-transport.js';
import { moveBody } from './move-body.js';
import type { Page } from './schemas/page-of.js';
import { type SiteSection, siteSectionSchema } from './schemas/site-section-schema.js';
import { SitePartCalls } from './site-part-calls.js';
import { sitePath } from './site-path.js';

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

const pointer = (siteSection: string) => ({ type: 'site-section' as const, siteSection });

export class SiteSectionsApi {
  private readonly sections: SitePartCalls<SiteSection, SiteSectionListOptions>;

  constructor(transport: HttpTransport) {
    this.sections = new SitePartCalls(
      transport,
      (orgId, siteId) => apiPath`${sitePath(orgId, siteId)}/sections`,
      siteSectionSchema,
      (options) => ({ shareKey: options.shareKey }),
    );
  }

  /** `GET .../sections`, in site order. */
  list(orgId: string, siteId: string, options: SiteSectionListOptions = {}): Promise<Page<SiteSection>> {
    return this.sections.page(orgId, siteId, options);
  }

  listAll(
    orgId: string,
    siteId: string,
    options: ListAllOptions<SiteSectionListOptions> = {},
  ): AsyncGenerator<SiteSection, void, undefined> {
    return this.sections.all(orgId, siteId, options);
  }

  /** `POST .../sections`: 201, a section with the space as its variant. */
  create(
    orgId: string,
    siteId: string,
    section: SiteSectionCreate,
    options: CallOptions = {},
  ): Promise<SiteSection> {
    return this.sections.send('POST', this.sections.path(orgId, siteId), section, options);
  }

  /** `PATCH .../sections/{siteSectionId}`. */
  update(
    orgId: string,
    siteId: string,
    sectionId: string,
    changes: SiteSectionPatch,
    options: CallOptions = {},
  ): Promise<SiteSection> {
    return this.sections.send('PATCH', this.sections.path(orgId, siteId, sectionId), changes, options);
  }

  /** `DELETE .../sections/{siteSectionId}`, with its site spaces. */
  async delete(orgId: string, siteId: string, sectionId: string, options: CallOptions = {}): Promise<void> {
    await this.sections.delete(this.sections.path(orgId, siteId, sectionId), options);
  }

  /** `POST .../sections/{siteSectionId}/move`. */
  move(
    orgId: string,
    siteId: string,
    sectionId: string,
    position: SiteSectionPosition = {},
    options: CallOptions = {},
  ): Promise<SiteSection> {
    const path = apiPath`${this.sections.path(orgId, siteId, sectionId)}/move`;
    return this.sections.send('POST', path, moveBody(position, pointer), options);
  }
}
