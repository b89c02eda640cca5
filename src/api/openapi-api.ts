// OpenAPI specifications of an organization. PUT creates or replaces and starts processing;
// `processingState` tells when the new version is ready; a version and its content say what the
// service keeps of an upload.
import { apiPath } from './api-path.js';
import type { CallOptions } from './call-options.js';
import type { HttpTransport } from './http-transport.js';
import { type OpenApiSpec, openApiSpecSchema } from './schemas/openapi-spec-schema.js';
import {
  type OpenApiSpecContent,
  type OpenApiSpecVersion,
  openApiSpecContentSchema,
  openApiSpecVersionSchema,
} from './schemas/openapi-spec-version-schema.js';

/** Where the service reads the specification: an address it fetches, or the text itself. */
export type OpenApiSource = { url: string } | { text: string };

export class OpenApiApi {
  constructor(private readonly transport: HttpTransport) {}

  /** `GET /orgs/{o}/openapi/{slug}`. */
  get(orgId: string, slug: string, options: CallOptions = {}): Promise<OpenApiSpec> {
    return this.transport.request('GET', apiPath`/orgs/${orgId}/openapi/${slug}`, {
      signal: options.signal,
      schema: openApiSpecSchema,
    });
  }

  /** `PUT /orgs/{o}/openapi/{slug}`: creates the spec or uploads a new version of it. */
  put(orgId: string, slug: string, source: OpenApiSource, options: CallOptions = {}): Promise<OpenApiSpec> {
    return this.transport.request('PUT', apiPath`/orgs/${orgId}/openapi/${slug}`, {
      body: { source },
      signal: options.signal,
      schema: openApiSpecSchema,
    });
  }

  /** `GET /orgs/{o}/openapi/{slug}/versions/{versionId}`. */
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

  /** `GET /orgs/{o}/openapi/{slug}/versions/{versionId}/content`: the document the version holds. */
  getVersionContent(
    orgId: string,
    slug: string,
    versionId: string,
    options: CallOptions = {},
  ): Promise<OpenApiSpecContent> {
    return this.transport.request(
      'GET',
      apiPath`/orgs/${orgId}/openapi/${slug}/versions/${versionId}/content`,
      { signal: options.signal, schema: openApiSpecContentSchema },
    );
  }
}
