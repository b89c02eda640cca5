// The typed client of the documentation service: one transport (connection pool, retries, auth)
// shared by the resource groups, as `client.spaces.get(id)`, `client.changeRequests.merge(s, cr)`.
import { ChangeRequestsApi } from './change-requests-api.js';
import { CollectionsApi } from './collections-api.js';
import { CommentsApi } from './comments-api.js';
import { ContentApi } from './content-api.js';
import { CustomFieldsApi } from './custom-fields-api.js';
import { HttpTransport, type HttpTransportOptions } from './http-transport.js';
import { OpenApiApi } from './openapi-api.js';
import { OrgsApi } from './orgs-api.js';
import { SitesApi } from './sites-api.js';
import { SpacesApi } from './spaces-api.js';
import { TeamsApi } from './teams-api.js';

export type DocsApiClientOptions = HttpTransportOptions;

export class DocsApiClient {
  /** The organizations the token can see. */
  readonly orgs: OrgsApi;
  /** Creating and reading spaces, and the main content's link check. */
  readonly spaces: SpacesApi;
  /** Revision, pages, import and page links of a space or a change request; file downloads. */
  readonly content: ContentApi;
  /** Change requests, merge and update, and their reviews. */
  readonly changeRequests: ChangeRequestsApi;
  /** Comment threads of a space or a change request. */
  readonly comments: CommentsApi;
  readonly openapi: OpenApiApi;
  /** Collections: nesting, the spaces they hold, moves and transfers. */
  readonly collections: CollectionsApi;
  /** Teams of an organization and their members. */
  readonly teams: TeamsApi;
  /** Custom field definitions and the values spaces give them. */
  readonly customFields: CustomFieldsApi;
  /** Sites, their sections, section groups and site spaces, adaptive schema and published view. */
  readonly sites: SitesApi;
  private readonly transport: HttpTransport;

  constructor(options: DocsApiClientOptions) {
    this.transport = new HttpTransport(options);
    this.orgs = new OrgsApi(this.transport);
    this.spaces = new SpacesApi(this.transport);
    this.content = new ContentApi(this.transport);
    this.changeRequests = new ChangeRequestsApi(this.transport);
    this.comments = new CommentsApi(this.transport);
    this.openapi = new OpenApiApi(this.transport);
    this.collections = new CollectionsApi(this.transport);
    this.teams = new TeamsApi(this.transport);
    this.customFields = new CustomFieldsApi(this.transport);
    this.sites = new SitesApi(this.transport);
  }

  /** Connections to the service at most: no more requests than these are under way at once. */
  get connections(): number {
    return this.transport.connections;
  }

  /** Lets requests in flight finish, then closes the connections. Idempotent. */
  close(): Promise<void> {
    return this.transport.close();
  }
}
