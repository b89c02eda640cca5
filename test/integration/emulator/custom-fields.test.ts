// Custom fields in the local service through docsync's client: definitions (limits, unique names,
// options only for selects), and the values spaces give them, each checked against its field's type
// and options. The public document has no schema for custom fields: answers are checked against the
// interface text's fields, and the document is asserted to have none (so nothing is left unchecked).
import { describe, expect, it } from 'vitest';
import type { CustomField } from '../../../src/api/schemas/custom-field-schema.js';
import { expectApiStatus } from '../../support/api-error-of.js';
import { checkResponse } from '../../support/service-document.js';
import { startTestEmulator } from '../../support/start-test-emulator.js';
import { testApiClient } from '../../support/test-api-client.js';

const FIELDS = '/orgs/{organizationId}/custom-fields';
const FIELD = `${FIELDS}/{fieldName}`;
const SPACE_FIELDS = '/spaces/{spaceId}/custom-fields';

/** The document lists no custom field operation; the record has the interface text's members. */
function asInterfaceSays(method: string, path: string, status: number, field: CustomField): CustomField {
  expect(checkResponse(method, path, status, field).known).toBe(false);
  expect(Object.keys(field).sort()).toEqual(
    expect.arrayContaining(['createdAt', 'id', 'name', 'permissions', 'type', 'updatedAt', 'urls']),
  );
  expect(field).not.toHaveProperty('object');
  for (const key of Object.keys(field)) {
    expect([
      'id',
      'name',
      'title',
      'description',
      'type',
      'placeholder',
      'options',
      'createdAt',
      'updatedAt',
      'urls',
      'permissions',
    ]).toContain(key);
  }
  return field;
}

describe('custom fields in the local service', async () => {
  const test = await startTestEmulator();
  const org = test.orgId;
  const { client } = testApiClient(test);
  const { client: reviewerClient } = testApiClient(test, test.tokens.reviewer);
  const { client: readerClient } = testApiClient(test, test.tokens.reader);
  const space = await client.spaces.create(org, { title: 'Fields' });

  const create = async (field: Parameters<typeof client.customFields.create>[1]) =>
    asInterfaceSays('POST', FIELDS, 201, await client.customFields.create(org, field));
  const valuesOf = async () => {
    const entries = await client.customFields.valuesOf(space.id);
    expect(checkResponse('GET', SPACE_FIELDS, 200, entries).known).toBe(false);
    for (const entry of entries) asInterfaceSays('GET', SPACE_FIELDS, 200, entry.customField);
    return Object.fromEntries(entries.map((entry) => [entry.customField.name, entry.value]));
  };

  it('defines fields of each type and reads, lists and changes them', async () => {
    const owner = await create({ name: 'owner', type: 'text', title: 'Owner', placeholder: 'A team name' });
    expect(owner).toMatchObject({
      name: 'owner',
      type: 'text',
      title: 'Owner',
      placeholder: 'A team name',
      permissions: { view: true, edit: true },
      urls: { location: `${test.baseUrl}/orgs/${org}/custom-fields/owner` },
    });
    await create({ name: 'weight', type: 'number' });
    await create({ name: 'public_api', type: 'boolean', description: 'Documents a public API' });
    await create({ name: 'tier', type: 'select', options: ['free', 'pro', 'enterprise'] });
    await create({ name: 'platforms', type: 'multi-select', options: ['linux', 'macos', 'windows'] });

    const read = asInterfaceSays('GET', FIELD, 200, await client.customFields.get(org, 'tier'));
    expect(read.options).toEqual(['free', 'pro', 'enterprise']);
    const asReader = asInterfaceSays('GET', FIELD, 200, await readerClient.customFields.get(org, 'tier'));
    expect(asReader.permissions).toEqual({ view: true, edit: false });

    const page = await client.customFields.list(org, { limit: 2 });
    expect(page.items.map((field) => field.name)).toEqual(['owner', 'weight']);
    expect(checkResponse('GET', FIELDS, 200, page).known).toBe(false);
    const names: string[] = [];
    for await (const field of client.customFields.listAll(org))
      names.push(asInterfaceSays('GET', FIELDS, 200, field).name);
    expect(names).toEqual(['owner', 'weight', 'public_api', 'tier', 'platforms']);

    const changed = await client.customFields.update(org, 'owner', {
      title: 'Owning team',
      description: 'Who keeps it',
    });
    expect(asInterfaceSays('PATCH', FIELD, 200, changed)).toMatchObject({
      name: 'owner',
      type: 'text',
      title: 'Owning team',
      description: 'Who keeps it',
    });
  });

  it('refuses bad definitions, duplicates, low roles and unknown fields', async () => {
    await expectApiStatus(client.customFields.create(org, { name: 'owner', type: 'text' }), 409);
    await expectApiStatus(client.customFields.create(org, { name: 'Has Spaces', type: 'text' }), 400);
    await expectApiStatus(client.customFields.create(org, { name: 'n'.repeat(51), type: 'text' }), 400);
    await expectApiStatus(client.customFields.create(org, { name: '', type: 'text' }), 400);
    await expectApiStatus(client.customFields.create(org, { name: 'kind', type: 'colour' }), 400);
    await expectApiStatus(
      client.customFields.create(org, { name: 'kind', type: 'text', title: 't'.repeat(101) }),
      400,
    );
    await expectApiStatus(
      client.customFields.create(org, { name: 'kind', type: 'text', description: 'd'.repeat(201) }),
      400,
    );
    await expectApiStatus(
      client.customFields.create(org, { name: 'kind', type: 'text', placeholder: 'p'.repeat(101) }),
      400,
    );
    // Options: 1 to 50, only for selects, which need them.
    await expectApiStatus(client.customFields.create(org, { name: 'kind', type: 'select' }), 400);
    await expectApiStatus(
      client.customFields.create(org, { name: 'kind', type: 'select', options: [] }),
      400,
    );
    const many = Array.from({ length: 51 }, (_, i) => `option-${i}`);
    await expectApiStatus(
      client.customFields.create(org, { name: 'kind', type: 'select', options: many }),
      400,
    );
    await expectApiStatus(
      client.customFields.create(org, { name: 'kind', type: 'text', options: ['a'] }),
      400,
    );
    await expectApiStatus(client.customFields.list(org, { limit: 1001 }), 400);

    await expectApiStatus(reviewerClient.customFields.create(org, { name: 'kind', type: 'text' }), 403);
    await expectApiStatus(reviewerClient.customFields.update(org, 'owner', { title: 'Mine' }), 403);
    await expectApiStatus(reviewerClient.customFields.delete(org, 'owner'), 403);
    await expectApiStatus(client.customFields.get(org, 'unknown'), 404);
    await expectApiStatus(client.customFields.update(org, 'unknown', { title: 'x' }), 404);
    await expectApiStatus(client.customFields.get('org_unknown', 'owner'), 404);
  });

  it('stores the values a space gives its fields, each of the type and options of its field', async () => {
    await client.customFields.setValues(space.id, {
      owner: 'Platform team',
      weight: 3,
      public_api: true,
      tier: 'pro',
      platforms: ['linux', 'macos'],
    });
    expect(await valuesOf()).toEqual({
      owner: 'Platform team',
      weight: 3,
      public_api: true,
      tier: 'pro',
      platforms: ['linux', 'macos'],
    });

    // A wrong value is refused naming its field, and nothing of the call is stored.
    const refused = async (values: Record<string, unknown>, field: string) => {
      const error = await expectApiStatus(
        client.customFields.setValues(space.id, { owner: 'Changed', ...values } as never),
        400,
      );
      expect(error.serviceMessage).toContain(field);
    };
    await refused({ weight: 'heavy' }, 'weight');
    await refused({ public_api: 'yes' }, 'public_api');
    await refused({ tier: 'gold' }, 'tier');
    await refused({ platforms: ['linux', 'bsd'] }, 'platforms');
    await refused({ platforms: 'linux' }, 'platforms');
    await refused({ owner: 'o'.repeat(257) }, 'owner');
    await refused({ unknown_field: 'x' }, 'unknown_field');
    expect((await valuesOf()).owner).toBe('Platform team');
    await client.customFields.setValues(space.id, { owner: 'o'.repeat(256) });
    expect((await valuesOf()).owner).toHaveLength(256);

    // null clears a value; the others stay.
    await client.customFields.setValues(space.id, { weight: null });
    expect(await valuesOf()).not.toHaveProperty('weight');

    await expectApiStatus(readerClient.customFields.setValues(space.id, { tier: 'free' }), 403);
    const asReader = await readerClient.customFields.valuesOf(space.id);
    expect(asReader.map((entry) => entry.customField.name)).toContain('tier');
    await expectApiStatus(client.customFields.valuesOf('spc_unknown'), 404);
  });

  it('keeps values to the options a field still has, and drops them with a deleted field', async () => {
    const updated = await client.customFields.update(org, 'platforms', { options: ['linux', 'windows'] });
    expect(asInterfaceSays('PATCH', FIELD, 200, updated).options).toEqual(['linux', 'windows']);
    expect((await valuesOf()).platforms).toEqual(['linux']);
    await client.customFields.update(org, 'tier', { options: ['free', 'enterprise'] });
    expect(await valuesOf()).not.toHaveProperty('tier');
    await expectApiStatus(client.customFields.update(org, 'owner', { options: ['a'] }), 400);

    await client.customFields.delete(org, 'public_api');
    await expectApiStatus(client.customFields.get(org, 'public_api'), 404);
    expect(await valuesOf()).not.toHaveProperty('public_api');
    // A new field of the same name starts without the old values.
    await create({ name: 'public_api', type: 'boolean' });
    expect(await valuesOf()).not.toHaveProperty('public_api');
    await expectApiStatus(client.customFields.delete(org, 'no_such_field'), 404);
  });
});
