// Custom fields: the organization's definitions (list, create, get, patch options and texts, delete)
// and the values a space gives them (read; set or clear in one PATCH, each checked against its
// field's type and options).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireNamedSpace } from '../access.js';
import { checkCustomFieldValue, valueStillAllowed } from '../custom-field-values.js';
import type { EmulatorContext } from '../emulator-context.js';
import { badRequest, conflict, notFound } from '../emulator-http-error.js';
import { nextSeq, type StoredOrg } from '../emulator-state.js';
import { newId } from '../ids.js';
import { pageOf } from '../page-list.js';
import { parseInput } from '../parse-input.js';
import { renderCustomField, renderCustomFieldValue } from '../render/render-custom-field.js';
import { requireNamedOrg } from '../require-named-org.js';
import { CUSTOM_FIELD_TYPES, type CustomFieldType, type StoredCustomField } from '../stored-org-resources.js';

const listQuery = z.looseObject({ page: z.string().optional(), limit: z.string().optional() });
const options = z.array(z.string().min(1).max(256)).min(1).max(50);
const texts = {
  title: z.string().max(100).optional(),
  description: z.string().max(200).optional(),
  placeholder: z.string().max(100).optional(),
  options: options.optional(),
};
const fieldCreate = z.strictObject({
  name: z
    .string()
    .min(1)
    .max(50)
    .regex(/^[a-z0-9_-]+$/, 'only a-z, 0-9, underscore and hyphen'),
  type: z.enum(CUSTOM_FIELD_TYPES),
  ...texts,
});
const fieldPatch = z.strictObject(texts);
const valuesPatch = z.strictObject({
  values: z.record(z.string().min(1), z.looseObject({ value: z.unknown() })),
});

type Params = { o: string; s: string; fieldName: string };

export function registerCustomFieldRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get<{ Params: Params }>('/v1/orgs/:o/custom-fields', async (request) => {
    const { caller, org } = requireNamedOrg(request, 'read', 'listing custom fields');
    const query = parseInput(listQuery, request.query, 'query');
    return pageOf(fieldsOf(ctx, org.id), query, (field) => renderCustomField(ctx, caller, field));
  });

  app.post<{ Params: Params }>('/v1/orgs/:o/custom-fields', async (request, reply) => {
    const { caller, org } = requireNamedOrg(request, 'admin', 'creating a custom field');
    const body = parseInput(fieldCreate, request.body, 'body');
    if (fieldsOf(ctx, org.id).some((field) => field.name === body.name))
      throw conflict(`name: the organization already has a custom field named ${body.name}`);
    checkOptions(body.type, body.options);
    const now = ctx.now().toISOString();
    const field: StoredCustomField = {
      ...definedOnly(body),
      id: newId('cf_'),
      seq: nextSeq(ctx.state),
      orgId: org.id,
      name: body.name,
      type: body.type,
      createdAt: now,
      updatedAt: now,
    };
    ctx.state.customFields[field.id] = field;
    ctx.changed();
    return reply
      .code(201)
      .header('location', `/v1/orgs/${org.id}/custom-fields/${field.name}`)
      .send(renderCustomField(ctx, caller, field));
  });

  app.get<{ Params: Params }>('/v1/orgs/:o/custom-fields/:fieldName', async (request) => {
    const { caller, org } = requireNamedOrg(request, 'read', 'reading a custom field');
    return renderCustomField(ctx, caller, requireField(ctx, org, request.params.fieldName));
  });

  app.patch<{ Params: Params }>('/v1/orgs/:o/custom-fields/:fieldName', async (request) => {
    const { caller, org } = requireNamedOrg(request, 'admin', 'changing a custom field');
    const field = requireField(ctx, org, request.params.fieldName);
    const patch = parseInput(fieldPatch, request.body, 'body');
    if (patch.options !== undefined) checkOptions(field.type, patch.options);
    Object.assign(field, definedOnly(patch), { updatedAt: ctx.now().toISOString() });
    if (patch.options !== undefined) dropValuesNoLongerAllowed(ctx, field);
    ctx.changed();
    return renderCustomField(ctx, caller, field);
  });

  app.delete<{ Params: Params }>('/v1/orgs/:o/custom-fields/:fieldName', async (request, reply) => {
    const { org } = requireNamedOrg(request, 'admin', 'deleting a custom field');
    const field = requireField(ctx, org, request.params.fieldName);
    delete ctx.state.customFields[field.id];
    for (const values of Object.values(ctx.state.customFieldValues)) delete values[field.id];
    ctx.changed();
    return reply.code(204).send();
  });

  app.get<{ Params: Params }>('/v1/spaces/:s/custom-fields', async (request) => {
    const { caller, space } = requireNamedSpace(
      ctx,
      request,
      'read',
      'reading the custom fields of the space',
    );
    const values = ctx.state.customFieldValues[space.id] ?? {};
    return fieldsOf(ctx, space.orgId).flatMap((field) => {
      const value = values[field.id];
      return value === undefined ? [] : [renderCustomFieldValue(ctx, caller, field, value)];
    });
  });

  app.patch<{ Params: Params }>('/v1/spaces/:s/custom-fields', async (request, reply) => {
    const { space } = requireNamedSpace(ctx, request, 'edit', 'setting the custom fields of the space');
    const body = parseInput(valuesPatch, request.body, 'body');
    const fields = fieldsOf(ctx, space.orgId);
    // Every value is checked before any is stored: one bad value changes nothing.
    const changes = Object.entries(body.values).map(([name, { value }]) => {
      const field = fields.find((each) => each.name === name);
      if (field === undefined)
        throw badRequest(`invalid body: values.${name}: no custom field named ${name}`);
      return { field, value: value === null ? null : checkCustomFieldValue(field, value) };
    });
    const stored = ctx.state.customFieldValues[space.id] ?? {};
    for (const { field, value } of changes) {
      if (value === null) delete stored[field.id];
      else stored[field.id] = value;
    }
    ctx.state.customFieldValues[space.id] = stored;
    space.updatedAt = ctx.now().toISOString();
    ctx.changed();
    return reply.code(204).send();
  });
}

function fieldsOf(ctx: EmulatorContext, orgId: string): StoredCustomField[] {
  return Object.values(ctx.state.customFields)
    .filter((field) => field.orgId === orgId)
    .sort((a, b) => a.seq - b.seq);
}

function requireField(ctx: EmulatorContext, org: StoredOrg, name: string): StoredCustomField {
  const field = fieldsOf(ctx, org.id).find((each) => each.name === name);
  if (field === undefined) throw notFound(`custom field ${name}`);
  return field;
}

/** Selects need their options; other types take none. */
function checkOptions(type: CustomFieldType, given: string[] | undefined): void {
  const select = type === 'select' || type === 'multi-select';
  if (select && given === undefined) throw badRequest(`invalid body: options: a ${type} field needs options`);
  if (!select && given !== undefined)
    throw badRequest(`invalid body: options: a ${type} field takes no options`);
  if (given !== undefined && new Set(given).size !== given.length)
    throw badRequest('invalid body: options: each option once');
}

/** The texts and options a body gives, without the members it leaves out. */
function definedOnly(body: {
  title?: string | undefined;
  description?: string | undefined;
  placeholder?: string | undefined;
  options?: string[] | undefined;
}): Partial<Pick<StoredCustomField, 'title' | 'description' | 'placeholder' | 'options'>> {
  return {
    ...(body.title === undefined ? {} : { title: body.title }),
    ...(body.description === undefined ? {} : { description: body.description }),
    ...(body.placeholder === undefined ? {} : { placeholder: body.placeholder }),
    ...(body.options === undefined ? {} : { options: body.options }),
  };
}

/** Spaces' values of a select field whose options changed keep only options that still exist. */
function dropValuesNoLongerAllowed(ctx: EmulatorContext, field: StoredCustomField): void {
  for (const values of Object.values(ctx.state.customFieldValues)) {
    const value = values[field.id];
    if (value === undefined) continue;
    const kept = valueStillAllowed(field, value);
    if (kept === undefined) delete values[field.id];
    else values[field.id] = kept;
  }
}
