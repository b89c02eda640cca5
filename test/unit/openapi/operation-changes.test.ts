import { describe, expect, it } from 'vitest';
import {
  diffOperations,
  type OperationChanges,
  summariseOperationChanges,
} from '../../../src/openapi/operation-changes.js';
import {
  type OperationFingerprints,
  operationFingerprints,
} from '../../../src/openapi/operation-fingerprints.js';

const ok = { '200': { description: 'ok' } };

function api(paths: Record<string, unknown>, schemas: Record<string, unknown> = {}) {
  return { openapi: '3.1.0', info: { title: 't', version: '1' }, paths, components: { schemas } };
}

/** What refresh records of a version: the part of the fingerprints kept for the next one. */
function recorded(fingerprints: OperationFingerprints) {
  return { operations: fingerprints.operations, components: fingerprints.components };
}

async function diff(before: Record<string, unknown> | undefined, after: Record<string, unknown>) {
  const previous = before === undefined ? undefined : recorded(await operationFingerprints(before));
  return diffOperations(previous, await operationFingerprints(after));
}

const none = { changedVia: [], uncompared: 0 };

/** A response whose JSON body is the named schema. */
function returns(schema: string) {
  return {
    '200': {
      description: 'ok',
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
    },
  };
}

describe('operation changes', () => {
  it('lists every operation as added on a first upload, by path then method', async () => {
    const after = api({
      '/pets/{id}': { get: { responses: ok } },
      '/pets': { post: { responses: ok }, get: { responses: ok } },
    });
    expect(await diff(undefined, after)).toEqual({
      added: ['GET /pets', 'POST /pets', 'GET /pets/{id}'],
      removed: [],
      changed: [],
      ...none,
    });
  });

  it('tells added, removed and changed operations apart, and ignores key order', async () => {
    const before = api({
      '/a': { get: { summary: 'A', responses: ok } },
      '/b': { delete: { responses: ok } },
    });
    const reordered = api({
      '/b': { delete: { responses: ok } },
      '/a': { get: { responses: ok, summary: 'A' } },
    });
    expect((await operationFingerprints(reordered)).operations).toEqual(
      (await operationFingerprints(before)).operations,
    );
    const after = api({
      '/a': { get: { summary: 'A, better', responses: ok } },
      '/c': { put: { responses: ok } },
    });
    expect(await diff(before, after)).toEqual({
      added: ['PUT /c'],
      removed: ['DELETE /b'],
      changed: ['GET /a'],
      ...none,
    });
  });

  it('names the shared component an operation changed through, apart from own-text changes', async () => {
    const paths = (summary: string) => ({
      '/pets': { get: { summary, responses: returns('PetList') } },
      '/pets/{id}': { get: { responses: returns('Pet') } },
      '/users': { get: { responses: returns('User') } },
    });
    const schemas = (nameType: string) => ({
      PetList: { type: 'array', items: { $ref: '#/components/schemas/Pet' } },
      Pet: { type: 'object', properties: { name: { type: nameType } } },
      User: { type: 'object' },
    });
    const before = api(paths('Pets'), schemas('string'));
    expect(await diff(before, api(paths('Pets'), schemas('integer')))).toEqual({
      added: [],
      removed: [],
      changed: [],
      changedVia: [
        { operation: 'GET /pets', components: ['components/schemas/Pet'] },
        { operation: 'GET /pets/{id}', components: ['components/schemas/Pet'] },
      ],
      uncompared: 0,
    });
    // Its own text changed too: listed as changed, and not again as changed through Pet.
    expect(await diff(before, api(paths('All pets'), schemas('integer')))).toMatchObject({
      changed: ['GET /pets'],
      changedVia: [{ operation: 'GET /pets/{id}', components: ['components/schemas/Pet'] }],
    });
  });

  it('reads two spellings of one pointer as one, and a $ref in an example as data', async () => {
    const spelled = (ref: string, example: unknown) =>
      api(
        { '/a/{id}': { get: { responses: ok } }, '/b': { get: { responses: returns('X') } } },
        {
          X: { type: 'object', properties: { p: { $ref: ref } }, example },
          'a/{id}': { type: 'string' },
        },
      );
    const raw = await operationFingerprints(spelled('#/components/schemas/a~1{id}', { $ref: 'one.yaml' }));
    const encoded = await operationFingerprints(
      spelled('#/components/schemas/a~1%7Bid%7D', { $ref: 'one.yaml' }),
    );
    expect(encoded.operations).toEqual(raw.operations);
    expect(Object.keys(raw.components).sort()).toEqual([
      'components/schemas/X',
      'components/schemas/a~1{id}',
    ]);
    const changedExample = await operationFingerprints(
      spelled('#/components/schemas/a~1{id}', { $ref: 'two.yaml' }),
    );
    expect(diffOperations(recorded(raw), changedExample).changedVia).toEqual([
      { operation: 'GET /b', components: ['components/schemas/X'] },
    ]);
  });

  it('counts path-level parameters, follows Swagger 2.0 definitions, and ends on recursive schemas', async () => {
    const withParameter = async (type: string) =>
      (
        await operationFingerprints(
          api({
            '/a/{id}': { parameters: [{ name: 'id', in: 'path', schema: { type } }], get: { responses: ok } },
          }),
        )
      ).operations;
    expect(await withParameter('string')).not.toEqual(await withParameter('integer'));

    const swagger = (type: string) => ({
      swagger: '2.0',
      paths: {
        '/t': {
          get: { responses: { '200': { description: 'ok', schema: { $ref: '#/definitions/Tree' } } } },
        },
      },
      definitions: {
        Tree: {
          type: 'object',
          properties: { label: { type }, children: { type: 'array', items: { $ref: '#/definitions/Tree' } } },
        },
      },
    });
    const before = await operationFingerprints(swagger('string'));
    expect(Object.keys(before.operations)).toEqual(['GET /t']);
    expect(diffOperations(recorded(before), await operationFingerprints(swagger('number')))).toEqual({
      added: [],
      removed: [],
      changed: [],
      changedVia: [{ operation: 'GET /t', components: ['definitions/Tree'] }],
      uncompared: 0,
    });
  });

  it('gives no operations for a document without paths', async () => {
    expect((await operationFingerprints({ openapi: '3.1.0', webhooks: {} })).operations).toEqual({});
  });

  it('does not compare with a record from an older docsync, and says so', async () => {
    const after = await operationFingerprints(
      api({ '/a': { get: { responses: ok } }, '/b': { get: { responses: ok } } }),
    );
    const changes = diffOperations(
      { operations: { 'GET /a': '0123456789abcdef', 'GET /c': '0123456789abcdef' } },
      after,
    );
    expect(changes).toEqual({
      added: ['GET /b'],
      removed: ['GET /c'],
      changed: [],
      changedVia: [],
      uncompared: 1,
    });
    expect(summariseOperationChanges(changes)[0]).toBe(
      '1 operations kept from the last upload not compared: it was recorded by an older docsync',
    );
  });

  it('summarises added, changed, removed, then changed through components, cut with a count', () => {
    const changes: OperationChanges = {
      added: ['GET /a', 'GET /b'],
      changed: ['PUT /c'],
      removed: ['DELETE /d'],
      changedVia: [
        { operation: 'GET /e', components: ['components/schemas/Pet'] },
        {
          operation: 'GET /f',
          components: [
            'components/schemas/A',
            'components/schemas/B',
            'components/schemas/C',
            'components/schemas/D',
          ],
        },
        { operation: 'GET /g', components: [] },
      ],
      uncompared: 0,
    };
    expect(summariseOperationChanges(changes)).toEqual([
      'added GET /a',
      'added GET /b',
      'changed PUT /c',
      'removed DELETE /d',
      'changed GET /e (via components/schemas/Pet)',
      'changed GET /f (via components/schemas/A, components/schemas/B and 2 more)',
      'changed GET /g (via shared components)',
    ]);
    expect(summariseOperationChanges(changes, 3)).toEqual(['added GET /a', 'added GET /b', '… and 5 more']);
    expect(summariseOperationChanges({ added: [], changed: [], removed: [], ...none })).toEqual([]);
  });
});

/**
 * 500 operations over 250 paths. Every `GET` returns one of 25 entities; each entity holds a chain
 * of 8 levels (`Level0` → `Level7`) and a `Node` that contains itself; `POST`s take a `Plain`
 * schema that reaches none of them.
 */
function generated(
  options: { leafType?: string; summaries?: Record<string, string>; extraPath?: boolean } = {},
) {
  const schemas: Record<string, unknown> = {
    Plain: { type: 'object', properties: { note: { type: 'string' } } },
    Node: {
      type: 'object',
      properties: {
        children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
        level: { $ref: '#/components/schemas/Level0' },
      },
    },
    Level7: { type: 'object', properties: { value: { type: options.leafType ?? 'string' } } },
  };
  for (let level = 0; level < 7; level += 1)
    schemas[`Level${level}`] = {
      type: 'object',
      properties: { next: { $ref: `#/components/schemas/Level${level + 1}` }, name: { type: 'string' } },
    };
  for (let entity = 0; entity < 25; entity += 1)
    schemas[`Entity${entity}`] = {
      type: 'object',
      properties: { id: { type: 'string' }, tree: { $ref: '#/components/schemas/Node' } },
    };
  const paths: Record<string, unknown> = {};
  for (let index = 0; index < 250; index += 1) {
    const path = `/items${index}/{id}`;
    paths[path] = {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        summary: options.summaries?.[`GET ${path}`] ?? `Read ${index}`,
        responses: returns(`Entity${index % 25}`),
      },
      post: {
        summary: options.summaries?.[`POST ${path}`] ?? `Write ${index}`,
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Plain' } } } },
        responses: ok,
      },
    };
  }
  if (options.extraPath === true) paths['/extra'] = { get: { responses: ok } };
  return api(paths, schemas);
}

describe('operation changes of a generated spec of 500 operations sharing deep schemas', () => {
  it('tells own-text changes from changes through the shared schemas, operation by operation', async () => {
    const before = recorded(await operationFingerprints(generated()));
    expect(Object.keys(before.operations)).toHaveLength(500);

    const summaries = { 'GET /items3/{id}': 'Read three', 'POST /items7/{id}': 'Write seven' };
    const after = await operationFingerprints(generated({ leafType: 'integer', summaries, extraPath: true }));
    const changes = diffOperations(before, after);
    expect(changes.added).toEqual(['GET /extra']);
    expect(changes.removed).toEqual([]);
    expect(changes.changed).toEqual(['GET /items3/{id}', 'POST /items7/{id}']);
    // Every GET reaches Level7 through its entity, Node and the chain; no POST does.
    expect(changes.changedVia).toHaveLength(249);
    expect(changes.changedVia.every(({ operation }) => operation.startsWith('GET '))).toBe(true);
    expect(new Set(changes.changedVia.map(({ components }) => components.join()))).toEqual(
      new Set(['components/schemas/Level7']),
    );
    expect(after.reachedBy('GET /items0/{id}')).toEqual([
      'components/schemas/Entity0',
      ...Array.from({ length: 8 }, (_, level) => `components/schemas/Level${level}`),
      'components/schemas/Node',
    ]);
    expect(after.reachedBy('POST /items0/{id}')).toEqual(['components/schemas/Plain']);
    expect(summariseOperationChanges(changes).slice(0, 4)).toEqual([
      'added GET /extra',
      'changed GET /items3/{id}',
      'changed POST /items7/{id}',
      'changed GET /items0/{id} (via components/schemas/Level7)',
    ]);
  });
});
