// A custom field of an organization (no `object` member) and the values spaces give them. The
// interface does not list the field types, so any type name is read.
import { z } from 'zod';
import { dateTime } from './shared-fields.js';

export const customFieldSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  type: z.string(),
  placeholder: z.string().optional(),
  options: z.array(z.string()).optional(),
  createdAt: dateTime.optional(),
  updatedAt: dateTime.optional(),
  urls: z.looseObject({ location: z.string().optional() }).optional(),
  permissions: z.looseObject({ view: z.boolean().optional(), edit: z.boolean().optional() }).optional(),
});

export type CustomField = z.output<typeof customFieldSchema>;

/** A value: text (at most 256 characters), a number, a boolean, or a list of texts. */
export const customFieldValueSchema = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);
export type CustomFieldValue = z.output<typeof customFieldValueSchema>;

export const customFieldValueEntrySchema = z.looseObject({
  customField: customFieldSchema,
  // The interface marks nothing optional here; an entry of a field with no value may come without it.
  value: customFieldValueSchema.optional(),
});

export type CustomFieldValueEntry = z.output<typeof customFieldValueEntrySchema>;
