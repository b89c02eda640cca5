// Members of an organization: listing with filters, reading, changing a role, removing.
import { apiPath } from './api-path.js';
import type { CallOptions, ListAllOptions, ListOptions } from './call-options.js';
import type { HttpTransport } from './http-transport.js';
import { listAll } from './list-all.js';
import { type Member, memberSchema } from './schemas/member-schema.js';
import { noContentSchema } from './schemas/no-content-schema.js';
import { type Page, pageOf } from './schemas/page-of.js';
import type { ListOrder, Role } from './schemas/service-enums.js';

const memberPageSchema = pageOf(memberSchema);

export interface MemberListOptions extends ListOptions {
  /** Default `desc`. */
  order?: ListOrder | undefined;
  role?: Role | undefined;
  /** Matches display name and e-mail. */
  search?: string | undefined;
  /** Default `joinedAt`; `lastSeenAt` lists only members who were ever active. */
  sort?: 'joinedAt' | 'lastSeenAt' | undefined;
}

export class MembersApi {
  constructor(private readonly transport: HttpTransport) {}

  /** `GET /orgs/{o}/members`. */
  list(orgId: string, options: MemberListOptions = {}): Promise<Page<Member>> {
    return this.transport.request('GET', apiPath`/orgs/${orgId}/members`, {
      query: {
        page: options.page,
        limit: options.limit,
        order: options.order,
        role: options.role,
        search: options.search,
        sort: options.sort,
      },
      signal: options.signal,
      schema: memberPageSchema,
    });
  }

  listAll(
    orgId: string,
    options: ListAllOptions<MemberListOptions> = {},
  ): AsyncGenerator<Member, void, undefined> {
    return listAll(apiPath`/orgs/${orgId}/members`, (cursor) => this.list(orgId, { ...options, ...cursor }));
  }

  /** `GET /orgs/{o}/members/{userId}`. */
  get(orgId: string, userId: string, options: CallOptions = {}): Promise<Member> {
    return this.transport.request('GET', apiPath`/orgs/${orgId}/members/${userId}`, {
      signal: options.signal,
      schema: memberSchema,
    });
  }

  /** `PATCH /orgs/{o}/members/{userId}`: null makes the member a guest. */
  updateRole(orgId: string, userId: string, role: Role | null, options: CallOptions = {}): Promise<Member> {
    return this.transport.request('PATCH', apiPath`/orgs/${orgId}/members/${userId}`, {
      body: { role },
      signal: options.signal,
      schema: memberSchema,
    });
  }

  /** `DELETE /orgs/{o}/members/{userId}`: 204. */
  delete(orgId: string, userId: string, options: CallOptions = {}): Promise<void> {
    return this.transport.request('DELETE', apiPath`/orgs/${orgId}/members/${userId}`, {
      signal: options.signal,
      schema: noContentSchema,
      expect: [204, 205],
    });
  }
}
