// Sites of an organization: listing, creating, reading, changing and deleting them, the adaptive
// schema and the published view; their sections, section groups and site spaces as sub-groups
// (`client.sites.sections.create(...)`).
import { apiPath } from './api-path.js';
import type { CallOptions, ListAllOptions, ListOptions } from './call-options.js';
import type { HttpTransport } from './http-transport.js';
import { PagedList } from './paged-list.js';
import { type Page, pageOf } from './schemas/page-of.js';
import { type SiteAdaptiveSchema, siteAdaptiveSchemaSchema } from './schemas/site-adaptive-schema-schema.js';
import type { NEW_SITE_SPACE, SiteAgentsContext, SiteType, SiteVisibility } from './schemas/site-enums.js';
import { type PublishedSite, publishedSiteSchema } from './schemas/site-published-schema.js';
import {
  type Site,
  type SitePublishResult,
  sitePublishResultSchema,
  siteSchema,
} from './schemas/site-schema.js';
import { DELETED_STATUSES, noContentSchema, sitePath } from './site-path.js';
import { SiteSectionGroupsApi } from './site-section-groups-api.js';
import { SiteSectionsApi } from './site-sections-api.js';
import { SiteSpacesApi } from './site-spaces-api.js';

export interface SiteListOptions extends ListOptions {
  /** Only sites publishing this space. */
  space?: string | undefined;
  /** Only sites whose title holds this. */
  title?: string | undefined;
  published?: boolean | undefined;
  type?: readonly SiteType[] | undefined;
}

export interface SiteCreate {
  /** Default `basic`. */
  type?: SiteType;
  /** 2 to 128 characters. */
  title?: string;
  visibility?: SiteVisibility;
  /** Spaces to publish in it, or `'new'` for a new space of its own. */
  spaces?: readonly string[] | typeof NEW_SITE_SPACE;
}

export interface SitePatch {
  title?: string;
  visibility?: SiteVisibility;
  /** 1 to 100 characters. */
  basename?: string;
  adaptiveContent?: { enabled: boolean };
  agentsContext?: SiteAgentsContext;
  /** The default site space at the top level, or in the default section of a site with sections. */
  defaultSiteSpace?: string;
  defaultSiteSection?: string;
  /** A host name and path (`company.com/docs`) the site is served under; null removes it. */
  proxy?: string | null;
}

export class SitesApi {
  /** Sections of a site, each with its site spaces (variants). */
  readonly sections: SiteSectionsApi;
  /** Groups of sections. */
  readonly sectionGroups: SiteSectionGroupsApi;
  /** Spaces published in a site. */
  readonly siteSpaces: SiteSpacesApi;
  private readonly sites: PagedList<Page<Site>, SiteListOptions>;

  constructor(private readonly transport: HttpTransport) {
    this.sections = new SiteSectionsApi(transport);
    this.sectionGroups = new SiteSectionGroupsApi(transport);
    this.siteSpaces = new SiteSpacesApi(transport);
    this.sites = new PagedList(transport, pageOf(siteSchema), (options) => ({
      space: options.space,
      title: options.title,
      published: options.published,
      type: options.type,
    }));
  }

  /** `GET /orgs/{o}/sites`. */
  list(orgId: string, options: SiteListOptions = {}): Promise<Page<Site>> {
    return this.sites.page(apiPath`/orgs/${orgId}/sites`, options);
  }

  listAll(
    orgId: string,
    options: ListAllOptions<SiteListOptions> = {},
  ): AsyncGenerator<Site, void, undefined> {
    return this.sites.all(apiPath`/orgs/${orgId}/sites`, options);
  }

  /** `POST /orgs/{o}/sites`: 201. */
  create(orgId: string, site: SiteCreate = {}, options: CallOptions = {}): Promise<Site> {
    return this.transport.request('POST', apiPath`/orgs/${orgId}/sites`, {
      body: site,
      signal: options.signal,
      schema: siteSchema,
    });
  }

  /** `GET /orgs/{o}/sites/{siteId}`. */
  get(orgId: string, siteId: string, options: CallOptions = {}): Promise<Site> {
    return this.transport.request('GET', sitePath(orgId, siteId), {
      signal: options.signal,
      schema: siteSchema,
    });
  }

  /** `PATCH /orgs/{o}/sites/{siteId}`. */
  update(orgId: string, siteId: string, changes: SitePatch, options: CallOptions = {}): Promise<Site> {
    return this.transport.request('PATCH', sitePath(orgId, siteId), {
      body: changes,
      signal: options.signal,
      schema: siteSchema,
    });
  }

  /** `DELETE /orgs/{o}/sites/{siteId}`: the site with its structure (its spaces stay). */
  async delete(orgId: string, siteId: string, options: CallOptions = {}): Promise<void> {
    await this.transport.request('DELETE', sitePath(orgId, siteId), {
      signal: options.signal,
      schema: noContentSchema,
      expect: DELETED_STATUSES,
    });
  }

  /**
   * `POST .../publish` (the public document's; the interface gives no move of `published`): the
   * site, or a checkout when the organization's plan must be paid for first.
   */
  publish(orgId: string, siteId: string, options: CallOptions = {}): Promise<SitePublishResult> {
    return this.transport.request('POST', apiPath`${sitePath(orgId, siteId)}/publish`, {
      signal: options.signal,
      schema: sitePublishResultSchema,
    });
  }

  /** `POST .../unpublish`. */
  unpublish(orgId: string, siteId: string, options: CallOptions = {}): Promise<Site> {
    return this.transport.request('POST', apiPath`${sitePath(orgId, siteId)}/unpublish`, {
      signal: options.signal,
      schema: siteSchema,
    });
  }

  /** `GET .../adaptive-schema`. */
  getAdaptiveSchema(orgId: string, siteId: string, options: CallOptions = {}): Promise<SiteAdaptiveSchema> {
    return this.transport.request('GET', apiPath`${sitePath(orgId, siteId)}/adaptive-schema`, {
      signal: options.signal,
      schema: siteAdaptiveSchemaSchema,
    });
  }

  /** `PUT .../adaptive-schema`: creates or replaces the JSON schema of the visitor claims. */
  putAdaptiveSchema(
    orgId: string,
    siteId: string,
    jsonSchema: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<SiteAdaptiveSchema> {
    return this.transport.request('PUT', apiPath`${sitePath(orgId, siteId)}/adaptive-schema`, {
      body: { jsonSchema },
      signal: options.signal,
      schema: siteAdaptiveSchemaSchema,
    });
  }

  /** `GET .../published`; `shareKey` resolves the published addresses of a share-link site. */
  getPublished(
    orgId: string,
    siteId: string,
    options: CallOptions & { shareKey?: string | undefined } = {},
  ): Promise<PublishedSite> {
    return this.transport.request('GET', apiPath`${sitePath(orgId, siteId)}/published`, {
      query: { shareKey: options.shareKey },
      signal: options.signal,
      schema: publishedSiteSchema,
    });
  }
}
