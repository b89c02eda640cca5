// Custom fields: the organization's definitions (list, create, read, change, delete, by name) and
// the values a space gives them (read, and set or clear several in one call).

import { z } from 'zod';
import { type ApiPath, apiPath } from './api-path.js';
import type { CallOptions, ListAllOptions, ListOptions } from './call-options.js';
import type { HttpTransport } from './http-transport.js';
import { PagedList } from './paged-list.js';
import {
  type CustomField,
  type CustomFieldValue,
  type CustomFieldValueEntry,
  customFieldSchema,
  customFieldValueEntrySchema,
} from './schemas/custom-field-schema.js';
import { noContentSchema } from './schemas/no-content-schema.js';
import { type Page, pageOf } from './schemas/page-of.js';

export interface CustomFieldTexts {
  /** At most 100 characters. */
  title?: string;
  /** At most 200 characters. */
  description?: string;
  /** At most 100 characters. */
  placeholder?: string;
  /** 1 to 50 entries, for fields that choose among options. */
  options?: string[];
}

export interface CustomFieldCreate extends CustomFieldTexts {
  /** 1 to 50 characters: a-z, 0-9, `_` and `-`. The key of values. */
  name: string;
  /** Such as `text`, `number`, `boolean`, `select`, `multi-select`. */
  type: string;
}

const valueEntriesSchema = z.array(customFieldValueEntrySchema);

function fieldPath(orgId: string, name?: string): ApiPath {
  return name === undefined
    ? apiPath`/orgs/${orgId}/custom-fields`
    : apiPath`/orgs/${orgId}/custom-fields/${name}`;
}

export class CustomFieldsApi {
  private readonly fields: PagedList<Page<CustomField>>;

  constructor(private readonly transport: HttpTransport) {
    this.fields = new PagedList(transport, pageOf(customFieldSchema));
  }

  /** `GET /orgs/{o}/custom-fields`. */
  list(orgId: string, options: ListOptions = {}): Promise<Page<CustomField>> {
    return this.fields.page(fieldPath(orgId), options);
  }

  listAll(
    orgId: string,
    options: ListAllOptions<ListOptions> = {},
  ): AsyncGenerator<CustomField, void, undefined> {
    return this.fields.all(fieldPath(orgId), options);
  }

  /** `POST /orgs/{o}/custom-fields`: 201. */
  create(orgId: string, field: CustomFieldCreate, options: CallOptions = {}): Promise<CustomField> {
    return this.transport.request('POST', fieldPath(orgId), {
      body: field,
      signal: options.signal,
      schema: customFieldSchema,
      expect: [201],
    });
  }

  /** `GET /orgs/{o}/custom-fields/{fieldName}`. */
  get(orgId: string, name: string, options: CallOptions = {}): Promise<CustomField> {
    return this.transport.request('GET', fieldPath(orgId, name), {
      signal: options.signal,
      schema: customFieldSchema,
    });
  }

  /** `PATCH /orgs/{o}/custom-fields/{fieldName}`: texts and options; the name and type stay. */
  update(
    orgId: string,
    name: string,
    patch: CustomFieldTexts,
    options: CallOptions = {},
  ): Promise<CustomField> {
    return this.transport.request('PATCH', fieldPath(orgId, name), {
      body: patch,
      signal: options.signal,
      schema: customFieldSchema,
    });
  }

  /** `DELETE /orgs/{o}/custom-fields/{fieldName}`: 204, with the values spaces gave it. */
  delete(orgId: string, name: string, options: CallOptions = {}): Promise<void> {
    return this.transport.request('DELETE', fieldPath(orgId, name), {
      signal: options.signal,
      schema: noContentSchema,
      expect: [204, 205],
    });
  }

  /** `GET /spaces/{s}/custom-fields`: the space's values, each with its field. */
  valuesOf(spaceId: string, options: CallOptions = {}): Promise<CustomFieldValueEntry[]> {
    return this.transport.request('GET', apiPath`/spaces/${spaceId}/custom-fields`, {
      signal: options.signal,
      schema: valueEntriesSchema,
    });
  }

  /**
   * `PATCH /spaces/{s}/custom-fields`: values by field name; null clears one. The service checks
   * each against its field (type, options, text length) and changes nothing when one is wrong. 204.
   */
  setValues(
    spaceId: string,
    values: Readonly<Record<string, CustomFieldValue | null>>,
    options: CallOptions = {},
  ): Promise<void> {
    const body = {
      values: Object.fromEntries(Object.entries(values).map(([name, value]) => [name, { value }])),
    };
    return this.transport.request('PATCH', apiPath`/spaces/${spaceId}/custom-fields`, {
      body,
      signal: options.signal,
      schema: noContentSchema,
      expect: [204],
    });
  }
}
