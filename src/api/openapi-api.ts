// OpenAPI specifications of an organization and their version history. PUT creates or replaces
// and starts processing; `processingState` tells when the new version is ready.
import { apiPath } from './api-path.js';
import type { CallOptions, ListAllOptions, ListOptions } from './call-options.js';
import type { HttpTransport } from './http-transport.js';
import { listAll } from './list-all.js';
import { noContentSchema } from './schemas/no-content-schema.js';
import { type OpenApiSpec, openApiSpecSchema } from './schemas/openapi-spec-schema.js';
import {
  type OpenApiSpecVersionContent,
  openApiSpecVersionContentSchema,
} from './schemas/openapi-spec-version-content-schema.js';
import { type OpenApiSpecVersion, openApiSpecVersionSchema } from './schemas/openapi-spec-version-schema.js';
import { type Page, pageOf } from './schemas/page-of.js';

const specPageSchema = pageOf(openApiSpecSchema);
const versionPageSchema = pageOf(openApiSpecVersionSchema);

/** Where the service reads the specification: an address it fetches, or the text itself. */
export type OpenApiSource = { url: string } | { text: string };

export class OpenApiApi {
  constructor(private readonly transport: HttpTransport) {}

  list(orgId: string, options: ListOptions = {}): Promise<Page<OpenApiSpec>> {
    return this.transport.request('GET', apiPath`/orgs/${orgId}/openapi`, {
      query: { page: options.page, limit: options.limit },
      signal: options.signal,
      schema: specPageSchema,
    });
  }

  listAll(
    orgId: string,
    options: ListAllOptions<ListOptions> = {},
  ): AsyncGenerator<OpenApiSpec, void, undefined> {
    return listAll(apiPath`/orgs/${orgId}/openapi`, (cursor) => this.list(orgId, { ...options, ...cursor }));
  }

  /** `POST`: 201; fails when the slug exists. `put` creates or updates. */
  create(
    orgId: string,
    spec: { slug: string; source: OpenApiSource },
    options: CallOptions = {},
  ): Promise<OpenApiSpec> {
    return this.transport.request('POST', apiPath`/orgs/${orgId}/openapi`, {
      body: spec,
      signal: options.signal,
      schema: openApiSpecSchema,
    });
  }

  get(orgId: string, slug: string, options: CallOptions = {}): Promise<OpenApiSpec> {
    return this.transport.request('GET', apiPath`/orgs/${orgId}/openapi/${slug}`, {
      signal: options.signal,
      schema: openApiSpecSchema,
    });
  }

  /** `PUT`: creates the spec or uploads a new version of it. */
  put(orgId: string, slug: string, source: OpenApiSource, options: CallOptions = {}): Promise<OpenApiSpec> {
    return this.transport.request('PUT', apiPath`/orgs/${orgId}/openapi/${slug}`, {
      body: { source },
      signal: options.signal,
      schema: openApiSpecSchema,
    });
  }

  /** 205. */
  delete(orgId: string, slug: string, options: CallOptions = {}): Promise<void> {
    return this.transport.request('DELETE', apiPath`/orgs/${orgId}/openapi/${slug}`, {
      signal: options.signal,
      schema: noContentSchema,
      expect: [204, 205],
    });
  }

  listVersions(orgId: string, slug: string, options: ListOptions = {}): Promise<Page<OpenApiSpecVersion>> {
    return this.transport.request('GET', apiPath`/orgs/${orgId}/openapi/${slug}/versions`, {
      query: { page: options.page, limit: options.limit },
      signal: options.signal,
      schema: versionPageSchema,
    });
  }

  listVersionsAll(
    orgId: string,
    slug: string,
    options: ListAllOptions<ListOptions> = {},
  ): AsyncGenerator<OpenApiSpecVersion, void, undefined> {
    return listAll(apiPath`/orgs/${orgId}/openapi/${slug}/versions`, (cursor) =>
      this.listVersions(orgId, slug, { ...options, ...cursor }),
    );
  }

  getLatestVersion(orgId: string, slug: string, options: CallOptions = {}): Promise<OpenApiSpecVersion> {
    return this.transport.request('GET', apiPath`/orgs/${orgId}/openapi/${slug}/versions/latest`, {
      signal: options.signal,
      schema: openApiSpecVersionSchema,
    });
  }

  getVersion(
    orgId: string,
    slug: string,
    versionId: string,
    options: CallOptions = {},
  ): Promise<OpenApiSpecVersion> {
    return this.transport.request('GET', apiPath`/orgs/${orgId}/openapi/${slug}/versions/${versionId}`, {
      signal: options.signal,
      schema: openApiSpecVersionSchema,
    });
  }

  getLatestVersionContent(
    orgId: string,
    slug: string,
    options: CallOptions = {},
  ): Promise<OpenApiSpecVersionContent> {
    return this.transport.request('GET', apiPath`/orgs/${orgId}/openapi/${slug}/versions/latest/content`, {
      signal: options.signal,
      schema: openApiSpecVersionContentSchema,
    });
  }

  getVersionContent(
    orgId: string,
    slug: string,
    versionId: string,
    options: CallOptions = {},
  ): Promise<OpenApiSpecVersionContent> {
    return this.transport.request(
      'GET',
      apiPath`/orgs/${orgId}/openapi/${slug}/versions/${versionId}/content`,
      { signal: options.signal, schema: openApiSpecVersionContentSchema },
    );
  }
}
