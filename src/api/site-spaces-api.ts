// Site spaces: spaces published in a site, added (to a section or the default one), changed (path,
// condition, the space shown), moved among site spaces, and removed.
import { apiPath } from './api-path.js';
import type { CallOptions, ListAllOptions, ListOptions } from './call-options.js';
import type { HttpTransport } from './http-transport.js';
import { moveBody } from './move-body.js';
import type { Page } from './schemas/page-of.js';
import { type SiteSpace, siteSpaceSchema } from './schemas/site-space-schema.js';
import { SitePartCalls } from './site-part-calls.js';
import { sitePath } from './site-path.js';

export interface SiteSpaceListOptions extends ListOptions {
  /** Resolves the published addresses of a share-link site. */
  shareKey?: string | undefined;
  /** true: only default site spaces; false: only the others. */
  default?: boolean | undefined;
}

export interface SiteSpaceAdd {
  spaceId: string;
  /** The default section when absent (the top level of a site without sections). */
  sectionId?: string;
}

/** Absent members stay as they are; a null condition removes it. */
export interface SiteSpacePatch {
  path?: string;
  condition?: string | null;
  /** The space the site space shows from now on. */
  spaceId?: string;
}

/** Where a site space goes: before and/or after sibling site spaces (ids); the end when neither. */
export interface SiteSpacePosition {
  before?: string;
  after?: string;
}

const pointer = (siteSpace: string) => ({ type: 'site-space' as const, siteSpace });

export class SiteSpacesApi {
  private readonly siteSpaces: SitePartCalls<SiteSpace, SiteSpaceListOptions>;

  constructor(transport: HttpTransport) {
    this.siteSpaces = new SitePartCalls(
      transport,
      (orgId, siteId) => apiPath`${sitePath(orgId, siteId)}/site-spaces`,
      siteSpaceSchema,
      (options) => ({ shareKey: options.shareKey, default: options.default }),
    );
  }

  /** `GET .../site-spaces`, in site order. */
  list(orgId: string, siteId: string, options: SiteSpaceListOptions = {}): Promise<Page<SiteSpace>> {
    return this.siteSpaces.page(orgId, siteId, options);
  }

  listAll(
    orgId: string,
    siteId: string,
    options: ListAllOptions<SiteSpaceListOptions> = {},
  ): AsyncGenerator<SiteSpace, void, undefined> {
    return this.siteSpaces.all(orgId, siteId, options);
  }

  /** `POST .../site-spaces`: 201. */
  add(orgId: string, siteId: string, siteSpace: SiteSpaceAdd, options: CallOptions = {}): Promise<SiteSpace> {
    return this.siteSpaces.send('POST', this.siteSpaces.path(orgId, siteId), siteSpace, options);
  }

  /** `PATCH .../site-spaces/{siteSpaceId}`. */
  update(
    orgId: string,
    siteId: string,
    siteSpaceId: string,
    changes: SiteSpacePatch,
    options: CallOptions = {},
  ): Promise<SiteSpace> {
    return this.siteSpaces.send('PATCH', this.siteSpaces.path(orgId, siteId, siteSpaceId), changes, options);
  }

  /** `DELETE .../site-spaces/{siteSpaceId}`: the space stays, unpublished from the site. */
  async delete(orgId: string, siteId: string, siteSpaceId: string, options: CallOptions = {}): Promise<void> {
    await this.siteSpaces.delete(this.siteSpaces.path(orgId, siteId, siteSpaceId), options);
  }

  /** `POST .../site-spaces/{siteSpaceId}/move`. */
  move(
    orgId: string,
    siteId: string,
    siteSpaceId: string,
    position: SiteSpacePosition = {},
    options: CallOptions = {},
  ): Promise<SiteSpace> {
    const path = apiPath`${this.siteSpaces.path(orgId, siteId, siteSpaceId)}/move`;
    return this.siteSpaces.send('POST', path, moveBody(position, pointer), options);
  }
}
