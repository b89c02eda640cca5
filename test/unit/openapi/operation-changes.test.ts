import { describe, expect, it } from 'vitest';
import {
  diffOperations,
  operationFingerprints,
  summariseOperationChanges,
} from '../../../src/openapi/operation-changes.js';

const ok = { '200': { description: 'ok' } };

function api(paths: Record<string, unknown>, schemas: Record<string, unknown> = {}) {
  return { openapi: '3.1.0', info: { title: 't', version: '1' }, paths, components: { schemas } };
}

describe('operation changes', () => {
  it('lists every operation as added on a first upload, by path then method', () => {
    const after = operationFingerprints(
      api({
        '/pets/{id}': { get: { responses: ok } },
        '/pets': { post: { responses: ok }, get: { responses: ok } },
      }),
    );
    expect(diffOperations(undefined, after)).toEqual({
      added: ['GET /pets', 'POST /pets', 'GET /pets/{id}'],
      removed: [],
      changed: [],
    });
  });

  it('tells added, removed and changed operations apart, and ignores key order', () => {
    const before = operationFingerprints(
      api({ '/a': { get: { summary: 'A', responses: ok } }, '/b': { delete: { responses: ok } } }),
    );
    const reordered = operationFingerprints(
      api({ '/b': { delete: { responses: ok } }, '/a': { get: { responses: ok, summary: 'A' } } }),
    );
    expect(reordered).toEqual(before);
    const after = operationFingerprints(
      api({ '/a': { get: { summary: 'A, better', responses: ok } }, '/c': { put: { responses: ok } } }),
    );
    expect(diffOperations(before, after)).toEqual({
      added: ['PUT /c'],
      removed: ['DELETE /b'],
      changed: ['GET /a'],
    });
  });

  it('marks the operations using a changed component, and only those', () => {
    const paths = {
      '/pets': {
        get: {
          responses: {
            '200': {
              description: 'ok',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
            },
          },
        },
      },
      '/users': { get: { responses: ok } },
    };
    const before = operationFingerprints(
      api(paths, { Pet: { type: 'object', properties: { name: { type: 'string' } } } }),
    );
    const after = operationFingerprints(
      api(paths, { Pet: { type: 'object', properties: { name: { type: 'integer' } } } }),
    );
    expect(diffOperations(before, after)).toEqual({ added: [], removed: [], changed: ['GET /pets'] });
  });

  it('counts path-level parameters, follows Swagger 2.0 definitions, and ends on recursive schemas', () => {
    const withParameter = (type: string) =>
      operationFingerprints(
        api({
          '/a/{id}': { parameters: [{ name: 'id', in: 'path', schema: { type } }], get: { responses: ok } },
        }),
      );
    expect(withParameter('string')).not.toEqual(withParameter('integer'));

    const swagger = (type: string) =>
      operationFingerprints({
        swagger: '2.0',
        paths: {
          '/t': {
            get: { responses: { '200': { description: 'ok', schema: { $ref: '#/definitions/Tree' } } } },
          },
        },
        definitions: {
          Tree: {
            type: 'object',
            properties: {
              label: { type },
              children: { type: 'array', items: { $ref: '#/definitions/Tree' } },
            },
          },
        },
      });
    expect(Object.keys(swagger('string'))).toEqual(['GET /t']);
    expect(swagger('string')).not.toEqual(swagger('number'));
  });

  it('gives no operations for a document without paths', () => {
    expect(operationFingerprints({ openapi: '3.1.0', webhooks: {} })).toEqual({});
  });

  it('summarises added, then changed, then removed, cut with a count', () => {
    const changes = { added: ['GET /a', 'GET /b'], changed: ['PUT /c'], removed: ['DELETE /d'] };
    expect(summariseOperationChanges(changes)).toEqual([
      'added GET /a',
      'added GET /b',
      'changed PUT /c',
      'removed DELETE /d',
    ]);
    expect(summariseOperationChanges(changes, 3)).toEqual(['added GET /a', 'added GET /b', '… and 2 more']);
    expect(summariseOperationChanges({ added: [], changed: [], removed: [] })).toEqual([]);
  });
});
