// What a custom field accepts as a space's value, by its type: text up to 256 characters, a number,
// a boolean, one of a select's options, a list of a multi-select's options. A wrong value is a 400
// naming the field.
import { badRequest } from './emulator-http-error.js';
import type { CustomFieldValue, StoredCustomField } from './stored-org-resources.js';

export const CUSTOM_FIELD_TEXT_MAX = 256;

export function checkCustomFieldValue(field: StoredCustomField, value: unknown): CustomFieldValue {
  const where = `values.${field.name}.value`;
  const refuse = (why: string) => badRequest(`invalid body: ${where}: ${why}`);
  switch (field.type) {
    case 'text':
      if (typeof value !== 'string') throw refuse(`custom field ${field.name} takes text`);
      if (value.length > CUSTOM_FIELD_TEXT_MAX)
        throw refuse(`text of custom field ${field.name} is at most ${CUSTOM_FIELD_TEXT_MAX} characters`);
      return value;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value))
        throw refuse(`custom field ${field.name} takes a number`);
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') throw refuse(`custom field ${field.name} takes true or false`);
      return value;
    case 'select':
      if (typeof value !== 'string' || !(field.options ?? []).includes(value))
        throw refuse(`custom field ${field.name} takes one of its options: ${optionList(field)}`);
      return value;
    case 'multi-select': {
      if (!Array.isArray(value) || value.some((each) => typeof each !== 'string'))
        throw refuse(`custom field ${field.name} takes a list of its options`);
      const strange = value.find((each: string) => !(field.options ?? []).includes(each));
      if (strange !== undefined)
        throw refuse(`"${strange}" is not an option of custom field ${field.name}: ${optionList(field)}`);
      return [...new Set(value as string[])];
    }
  }
}

/** A value still allowed once a field's options changed; undefined when it no longer is. */
export function valueStillAllowed(
  field: StoredCustomField,
  value: CustomFieldValue,
): CustomFieldValue | undefined {
  const options = field.options ?? [];
  if (field.type === 'select')
    return typeof value === 'string' && options.includes(value) ? value : undefined;
  if (field.type === 'multi-select' && Array.isArray(value)) {
    const kept = value.filter((each) => options.includes(each));
    return kept.length === 0 ? undefined : kept;
  }
  return value;
}

function optionList(field: StoredCustomField): string {
  return (field.options ?? []).map((option) => JSON.stringify(option)).join(', ');
}
