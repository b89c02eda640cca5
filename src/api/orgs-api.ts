// Organizations the token can see: the cheapest call that proves the token works.
import { apiPath } from './api-path.js';
import type { ListOptions } from './call-options.js';
import type { HttpTransport } from './http-transport.js';
import { PagedList } from './paged-list.js';
import { type Organization, organizationSchema } from './schemas/organization-schema.js';
import { type Page, pageOf } from './schemas/page-of.js';

export class OrgsApi {
  private readonly organizations: PagedList<Page<Organization>>;

  constructor(transport: HttpTransport) {
    this.organizations = new PagedList(transport, pageOf(organizationSchema));
  }

  /** `GET /orgs`: one page of the organizations of the authenticated user. */
  list(options: ListOptions = {}): Promise<Page<Organization>> {
    return this.organizations.page(apiPath`/orgs`, options);
  }
}
