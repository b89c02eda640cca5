// OpenAPI specs, their versions and version content as the interface shows them. A version's `url`
// is served by the local service itself (`/_emulator/openapi/{versionId}`, no token needed), and its
// content's `filesystem` is the parsed document.
import { roleIn } from '../access.js';
import type { Caller, EmulatorContext } from '../emulator-context.js';
import type { StoredOpenApiSpec, StoredOpenApiVersion } from '../emulator-state.js';
import { parseOpenApiText } from '../parse-openapi-text.js';
import { roleAtLeast } from '../roles.js';

export function openApiSpecPath(spec: StoredOpenApiSpec): string {
  return `/v1/orgs/${spec.orgId}/openapi/${spec.slug}`;
}

export function openApiVersionUrl(ctx: EmulatorContext, version: StoredOpenApiVersion): string {
  return `${ctx.origin()}/_emulator/openapi/${version.id}`;
}

export function renderOpenApiSpec(ctx: EmulatorContext, caller: Caller, spec: StoredOpenApiSpec) {
  const role = roleIn(caller, spec.orgId);
  const origin = ctx.origin();
  return {
    object: 'openapi-spec' as const,
    id: spec.id,
    createdAt: spec.createdAt,
    updatedAt: spec.updatedAt,
    slug: spec.slug,
    ...(spec.sourceURL === undefined ? {} : { sourceURL: spec.sourceURL }),
    processingState: spec.processingState,
    ...(spec.lastVersion === undefined ? {} : { lastVersion: spec.lastVersion }),
    ...(spec.lastProcessedAt === undefined ? {} : { lastProcessedAt: spec.lastProcessedAt }),
    ...(spec.lastProcessErrorCode === undefined ? {} : { lastProcessErrorCode: spec.lastProcessErrorCode }),
    permissions: { view: roleAtLeast(role, 'read'), edit: roleAtLeast(role, 'create') },
    urls: {
      location: `${origin}${openApiSpecPath(spec)}`,
      app: `${origin}/app/o/${spec.orgId}/openapi/${spec.slug}`,
    },
  };
}

export function renderOpenApiVersion(
  ctx: EmulatorContext,
  spec: StoredOpenApiSpec,
  version: StoredOpenApiVersion,
) {
  return {
    object: 'openapi-spec-version' as const,
    id: version.id,
    createdAt: version.createdAt,
    url: openApiVersionUrl(ctx, version),
    urls: { location: `${ctx.origin()}${openApiSpecPath(spec)}/versions/${version.id}` },
  };
}

export function renderOpenApiVersionContent(ctx: EmulatorContext, version: StoredOpenApiVersion) {
  const parsed = parseOpenApiText(version.text);
  // Only texts that parsed become versions: failing now is a bug of the local service, not a 4xx.
  if (!parsed.ok) throw new Error(`openapi version ${version.id} no longer parses`);
  return { filesystem: parsed.document, url: openApiVersionUrl(ctx, version) };
}
