// Custom field definitions and a space's value entries as the interface shows them (a custom field
// has no `object` member). The public document has no schema for them: the interface text decides.
import { roleIn } from '../access.js';
import type { Caller, EmulatorContext } from '../emulator-context.js';
import { roleAtLeast } from '../roles.js';
import type { CustomFieldValue, StoredCustomField } from '../stored-org-resources.js';

export function renderCustomField(ctx: EmulatorContext, caller: Caller, field: StoredCustomField) {
  const role = roleIn(caller, field.orgId);
  return {
    id: field.id,
    name: field.name,
    ...(field.title === undefined ? {} : { title: field.title }),
    ...(field.description === undefined ? {} : { description: field.description }),
    type: field.type,
    ...(field.placeholder === undefined ? {} : { placeholder: field.placeholder }),
    ...(field.options === undefined ? {} : { options: field.options }),
    createdAt: field.createdAt,
    updatedAt: field.updatedAt,
    urls: { location: `${ctx.origin()}/v1/orgs/${field.orgId}/custom-fields/${field.name}` },
    permissions: { view: roleAtLeast(role, 'read'), edit: roleAtLeast(role, 'admin') },
  };
}

/** An entry of `GET /spaces/{s}/custom-fields`. */
export function renderCustomFieldValue(
  ctx: EmulatorContext,
  caller: Caller,
  field: StoredCustomField,
  value: CustomFieldValue,
) {
  return { customField: renderCustomField(ctx, caller, field), value };
}
