// Site spaces: spaces published in a site, added (to a section or the default one), changed (path,
// condition, the space shown), moved among site spaces, and removed.
import { type ApiPath, apiPath } from './api-path.js';
import type { CallOptions, ListAllOptions, ListOptions } from './call-options.js';
import type { HttpTransport } from './http-transport.js';
import { PagedList } from './paged-list.js';
import { type Page, pageOf } from './schemas/page-of.js';
import { type SiteSpace, siteSpaceSchema } from './schemas/site-space-schema.js';
import { DELETED_STATUSES, noContentSchema, sitePath } from './site-path.js';

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

function siteSpacesPath(orgId: string, siteId: string, siteSpaceId?: string): ApiPath {
  const base = apiPath`${sitePath(orgId, siteId)}/site-spaces`;
  return siteSpaceId === undefined ? base : apiPath`${base}/${siteSpaceId}`;
}

const pointer = (siteSpace: string) => ({ type: 'site-space' as const, siteSpace });

export class SiteSpacesApi {
  private readonly siteSpaces: PagedList<Page<SiteSpace>, SiteSpaceListOptions>;

  constructor(private readonly transport: HttpTransport) {
    this.siteSpaces = new PagedList(transport, pageOf(siteSpaceSchema), (options) => ({
      shareKey: options.shareKey,
      default: options.default,
    }));
  }

  /** `GET .../site-spaces`, in site order. */
  list(orgId: string, siteId: string, options: SiteSpaceListOptions = {}): Promise<Page<SiteSpace>> {
    return this.siteSpaces.page(siteSpacesPath(orgId, siteId), options);
  }

  listAll(
    orgId: string,
    siteId: string,
    options: ListAllOptions<SiteSpaceListOptions> = {},
  ): AsyncGenerator<SiteSpace, void, undefined> {
    return this.siteSpaces.all(siteSpacesPath(orgId, siteId), options);
  }

  /** `POST .../site-spaces`: 201. */
  add(orgId: string, siteId: string, siteSpace: SiteSpaceAdd, options: CallOptions = {}): Promise<SiteSpace> {
    return this.transport.request('POST', siteSpacesPath(orgId, siteId), {
      body: siteSpace,
      signal: options.signal,
      schema: siteSpaceSchema,
    });
  }

  /** `PATCH .../site-spaces/{siteSpaceId}`. */
  update(
    orgId: string,
    siteId: string,
    siteSpaceId: string,
    changes: SiteSpacePatch,
    options: CallOptions = {},
  ): Promise<SiteSpace> {
    return this.transport.request('PATCH', siteSpacesPath(orgId, siteId, siteSpaceId), {
      body: changes,
      signal: options.signal,
      schema: siteSpaceSchema,
    });
  }

  /** `DELETE .../site-spaces/{siteSpaceId}`: the space stays, unpublished from the site. */
  async delete(orgId: string, siteId: string, siteSpaceId: string, options: CallOptions = {}): Promise<void> {
    await this.transport.request('DELETE', siteSpacesPath(orgId, siteId, siteSpaceId), {
      signal: options.signal,
      schema: noContentSchema,
      expect: DELETED_STATUSES,
    });
  }

  /** `POST .../site-spaces/{siteSpaceId}/move`. */
  move(
    orgId: string,
    siteId: string,
    siteSpaceId: string,
    position: SiteSpacePosition = {},
    options: CallOptions = {},
  ): Promise<SiteSpace> {
    const body =
      position.before === undefined && position.after === undefined
        ? {}
        : {
            position: {
              ...(position.before === undefined ? {} : { before: pointer(position.before) }),
              ...(position.after === undefined ? {} : { after: pointer(position.after) }),
            },
          };
    return this.transport.request('POST', apiPath`${siteSpacesPath(orgId, siteId, siteSpaceId)}/move`, {
      body,
      signal: options.signal,
      schema: siteSpaceSchema,
    });
  }
}
