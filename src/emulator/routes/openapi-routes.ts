// OpenAPI specs of the organization (`/v1/orgs/{o}/openapi`): list, create, get, put (create or
// update), delete, versions (newest first), the latest version and the content of a version; and
// `/_emulator/openapi/{versionId}`, the address a version's `url` gives, serving the text as uploaded.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { callerOf, requireOrg } from '../access.js';
import type { Caller, EmulatorContext } from '../emulator-context.js';
import { badRequest, conflict, notFound } from '../emulator-http-error.js';
import { nextSeq, type StoredOpenApiSpec, type StoredOpenApiVersion } from '../emulator-state.js';
import { newId } from '../ids.js';
import { OpenApiProcessor, type OpenApiSource } from '../openapi-processing.js';
import { pageOf } from '../page-list.js';
import { parseInput } from '../parse-input.js';
import { parseOpenApiText } from '../parse-openapi-text.js';
import {
  openApiSpecPath,
  renderOpenApiSpec,
  renderOpenApiVersion,
  renderOpenApiVersionContent,
} from '../render/render-openapi.js';

export const OPENAPI_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const slugSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(OPENAPI_SLUG_PATTERN, 'must be lowercase words joined by -');
const sourceSchema = z.union([
  z.strictObject({ url: z.url({ protocol: /^https?$/ }).max(2048) }),
  z.strictObject({ text: z.string().min(1) }),
]);
const specCreate = z.strictObject({ slug: slugSchema, source: sourceSchema });
const specPut = z.strictObject({ source: sourceSchema });
const listQuery = z.looseObject({ page: z.string().optional(), limit: z.string().optional() });

type Params = { o: string; slug: string; versionId?: string };

const specs = '/v1/orgs/:o/openapi';
const spec = `${specs}/:slug`;

export function registerOpenApiRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const processor = new OpenApiProcessor(ctx);
  registerOpenApiSpecRoutes(app, ctx, processor);
  registerOpenApiVersionRoutes(app, ctx);
}

/** The spec of the path, after checking the caller's role in the organization. */
function requireSpec(
  ctx: EmulatorContext,
  caller: Caller,
  params: Params,
  needed: 'read' | 'create',
  action: string,
) {
  const org = requireOrg(caller, params.o, needed, action);
  const found = findSpec(ctx, org.id, params.slug);
  if (found === undefined) throw notFound(`openapi spec ${params.slug}`);
  return found;
}

/** The specs of an organization: list, create, get, put (create or replace) and delete. */
function registerOpenApiSpecRoutes(
  app: FastifyInstance,
  ctx: EmulatorContext,
  processor: OpenApiProcessor,
): void {
  app.get<{ Params: Params }>(specs, async (request) => {
    const caller = callerOf(request);
    const org = requireOrg(caller, request.params.o, 'read', 'listing openapi specs');
    const query = parseInput(listQuery, request.query, 'query');
    const items = Object.values(ctx.state.openapiSpecs).filter((item) => item.orgId === org.id);
    return pageOf(items, query, (item) => renderOpenApiSpec(ctx, caller, item));
  });

  app.post<{ Params: Params }>(specs, async (request, reply) => {
    const caller = callerOf(request);
    const org = requireOrg(caller, request.params.o, 'create', 'creating an openapi spec');
    const body = parseInput(specCreate, request.body, 'body');
    if (findSpec(ctx, org.id, body.slug) !== undefined)
      throw conflict(`openapi spec ${body.slug} already exists`);
    const created = createSpec(ctx, org.id, body.slug);
    startProcessing(ctx, processor, created, body.source);
    return reply
      .code(201)
      .header('location', openApiSpecPath(created))
      .send(renderOpenApiSpec(ctx, caller, created));
  });

  app.get<{ Params: Params }>(spec, async (request) => {
    const caller = callerOf(request);
    return renderOpenApiSpec(
      ctx,
      caller,
      requireSpec(ctx, caller, request.params, 'read', 'reading an openapi spec'),
    );
  });

  app.put<{ Params: Params }>(spec, async (request) => {
    const caller = callerOf(request);
    const org = requireOrg(caller, request.params.o, 'create', 'uploading an openapi spec');
    const { slug } = request.params;
    if (!slugSchema.safeParse(slug).success)
      throw badRequest('slug: 1 to 100 lowercase letters and digits, in words joined by -');
    const body = parseInput(specPut, request.body, 'body');
    const target = findSpec(ctx, org.id, slug) ?? createSpec(ctx, org.id, slug);
    startProcessing(ctx, processor, target, body.source);
    return renderOpenApiSpec(ctx, caller, target);
  });

  app.delete<{ Params: Params }>(spec, async (request, reply) => {
    const caller = callerOf(request);
    const found = requireSpec(ctx, caller, request.params, 'create', 'deleting an openapi spec');
    processor.forget(found.id);
    for (const version of versionsOf(ctx, found)) delete ctx.state.openapiVersions[version.id];
    delete ctx.state.openapiSpecs[found.id];
    ctx.changed();
    return reply.code(205).send();
  });
}

/** A spec's versions (list, one, the latest, their content), and the text the processor fetches. */
function registerOpenApiVersionRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get<{ Params: Params }>(`${spec}/versions`, async (request) => {
    const caller = callerOf(request);
    const found = requireSpec(ctx, caller, request.params, 'read', 'listing openapi spec versions');
    const query = parseInput(listQuery, request.query, 'query');
    return pageOf(
      versionsOf(ctx, found),
      query,
      (version) => renderOpenApiVersion(ctx, found, version),
      'desc',
    );
  });

  // `latest` is an endpoint of its own in the interface, so it is a route of its own here too.
  for (const version of [':versionId', 'latest']) {
    app.get<{ Params: Params }>(`${spec}/versions/${version}`, async (request) => {
      const caller = callerOf(request);
      const found = requireSpec(ctx, caller, request.params, 'read', 'reading an openapi spec version');
      return renderOpenApiVersion(
        ctx,
        found,
        requireVersion(ctx, found, request.params.versionId ?? 'latest'),
      );
    });

    app.get<{ Params: Params }>(`${spec}/versions/${version}/content`, async (request) => {
      const caller = callerOf(request);
      const found = requireSpec(ctx, caller, request.params, 'read', 'reading an openapi spec version');
      return renderOpenApiVersionContent(
        ctx,
        requireVersion(ctx, found, request.params.versionId ?? 'latest'),
      );
    });
  }

  app.get<{ Params: { versionId: string } }>('/_emulator/openapi/:versionId', async (request, reply) => {
    const version = ctx.state.openapiVersions[request.params.versionId];
    if (version === undefined) throw notFound(`openapi spec version ${request.params.versionId}`);
    const parsed = parseOpenApiText(version.text);
    const type = parsed.ok && parsed.format === 'json' ? 'application/json' : 'application/yaml';
    return reply.type(`${type}; charset=utf-8`).send(version.text);
  });
}

function findSpec(ctx: EmulatorContext, orgId: string, slug: string): StoredOpenApiSpec | undefined {
  return Object.values(ctx.state.openapiSpecs).find((item) => item.orgId === orgId && item.slug === slug);
}

function createSpec(ctx: EmulatorContext, orgId: string, slug: string): StoredOpenApiSpec {
  const now = ctx.now().toISOString();
  const created: StoredOpenApiSpec = {
    id: newId('oas_'),
    seq: nextSeq(ctx.state),
    orgId,
    slug,
    createdAt: now,
    updatedAt: now,
    processingState: 'pending',
  };
  ctx.state.openapiSpecs[created.id] = created;
  return created;
}

function startProcessing(
  ctx: EmulatorContext,
  processor: OpenApiProcessor,
  spec: StoredOpenApiSpec,
  source: OpenApiSource,
): void {
  if ('url' in source) spec.sourceURL = source.url;
  else delete spec.sourceURL;
  spec.updatedAt = ctx.now().toISOString();
  processor.start(spec, source);
  ctx.changed();
}

function versionsOf(ctx: EmulatorContext, spec: StoredOpenApiSpec): StoredOpenApiVersion[] {
  return Object.values(ctx.state.openapiVersions).filter((version) => version.specId === spec.id);
}

/** A version of the spec by id, or `latest` for the spec's last version. */
function requireVersion(
  ctx: EmulatorContext,
  spec: StoredOpenApiSpec,
  versionId: string,
): StoredOpenApiVersion {
  const id = versionId === 'latest' ? spec.lastVersion : versionId;
  const version = id === undefined ? undefined : ctx.state.openapiVersions[id];
  if (version === undefined || version.specId !== spec.id) {
    throw notFound(
      versionId === 'latest' ? `a version of openapi spec ${spec.slug}` : `openapi spec version ${versionId}`,
    );
  }
  return version;
}
