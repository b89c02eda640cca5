// Organizations the token can see, and the ping that marks the caller as active in one.
import { apiPath } from './api-path.js';
import type { CallOptions, ListAllOptions, ListOptions } from './call-options.js';
import type { HttpTransport } from './http-transport.js';
import { listAll } from './list-all.js';
import { type Organization, organizationSchema } from './schemas/organization-schema.js';
import { type Page, pageOf } from './schemas/page-of.js';
import { type PingResult, pingResultSchema } from './schemas/ping-result-schema.js';

const organizationPageSchema = pageOf(organizationSchema);

export class OrgsApi {
  constructor(private readonly transport: HttpTransport) {}

  /** `GET /orgs`: one page of the organizations of the authenticated user. */
  list(options: ListOptions = {}): Promise<Page<Organization>> {
    return this.transport.request('GET', apiPath`/orgs`, {
      query: { page: options.page, limit: options.limit },
      signal: options.signal,
      schema: organizationPageSchema,
    });
  }

  listAll(options: ListAllOptions<ListOptions> = {}): AsyncGenerator<Organization, void, undefined> {
    return listAll(apiPath`/orgs`, (cursor) => this.list({ ...options, ...cursor }));
  }

  /** `GET /orgs/{o}`. */
  get(orgId: string, options: CallOptions = {}): Promise<Organization> {
    return this.transport.request('GET', apiPath`/orgs/${orgId}`, {
      signal: options.signal,
      schema: organizationSchema,
    });
  }

  /** `POST /orgs/{o}/ping`: updates the caller's last-seen time; cheap proof that the token works. */
  ping(orgId: string, options: CallOptions = {}): Promise<PingResult> {
    return this.transport.request('POST', apiPath`/orgs/${orgId}/ping`, {
      signal: options.signal,
      schema: pingResultSchema,
    });
  }
}
