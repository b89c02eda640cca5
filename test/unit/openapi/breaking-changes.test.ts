import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import {
  type BreakingChange,
  breakingChanges,
  describeBreakingChange,
} from '../../../src/openapi/breaking-changes.js';
import { openApiContract, packContract, unpackContract } from '../../../src/openapi/openapi-contract.js';
import { diffOperations, summariseOperationChanges } from '../../../src/openapi/operation-changes.js';
import { operationFingerprints } from '../../../src/openapi/operation-fingerprints.js';

type Doc = Record<string, unknown>;
// biome-ignore lint/suspicious/noExplicitAny: the edits below reach deep into a parsed document.
type Editable = Record<string, any>;

// GitHub's description of its API (1,200 operations, 13 MB): the old version of every pair below.
const GITHUB_TEXT = readFileSync(
  createRequire(import.meta.url).resolve('@octokit/openapi/generated/api.github.com.json'),
  'utf8',
);

/** A copy of GitHub's document, edited by `edit`. */
function github(edit: (document: Editable) => void = () => {}): Doc {
  const document = JSON.parse(GITHUB_TEXT) as Editable;
  edit(document);
  return document;
}

function parameter(document: Editable, path: string, method: string, name: string) {
  return document.paths[path][method].parameters.find((item: { name?: string }) => item.name === name);
}

function messages(changes: readonly BreakingChange[]): string[] {
  return changes.map((change) => `${change.operation}: ${describeBreakingChange(change)}`);
}

function api(paths: Doc, schemas: Doc = {}): Doc {
  return { openapi: '3.0.3', info: { title: 't', version: '1' }, paths, components: { schemas } };
}

function json(schema: Doc, status = '200') {
  return { [status]: { description: 'ok', content: { 'application/json': { schema } } } };
}

describe('breaking changes', () => {
  const before = github();

  it('finds nothing between a document and itself', async () => {
    expect(await breakingChanges(before, github())).toEqual([]);
  });

  it('marks a removed operation, a newly required parameter and a narrowed parameter of GitHub’s API', async () => {
    const after = github((document) => {
      delete document.paths['/repos/{owner}/{repo}/issues/{issue_number}/lock'].delete;
      parameter(document, '/repos/{owner}/{repo}/issues', 'get', 'creator').required = true;
      parameter(document, '/repos/{owner}/{repo}/issues', 'get', 'milestone').schema = {
        type: 'string',
        enum: ['none', '*'],
      };
    });
    expect(messages(await breakingChanges(before, after))).toEqual([
      'GET /repos/{owner}/{repo}/issues: narrowed query parameter milestone: string → enum ["none", "*"]',
      'GET /repos/{owner}/{repo}/issues: query parameter creator is now required',
      'DELETE /repos/{owner}/{repo}/issues/{issue_number}/lock: removed operation',
    ]);
  });

  it('marks a request field narrowed from number to integer', async () => {
    const after = github((document) => {
      const body =
        document.paths['/repos/{owner}/{repo}/pages/deployments'].post.requestBody.content[
          'application/json'
        ];
      body.schema.properties.artifact_id.type = 'integer';
    });
    expect(await breakingChanges(before, after)).toEqual([
      {
        operation: 'POST /repos/{owner}/{repo}/pages/deployments',
        kind: 'narrowed-type',
        at: 'request body application/json',
        field: 'artifact_id',
        detail: 'number → integer',
      },
    ]);
  });

  it('marks a removed response field in every operation that returns it, naming its component', async () => {
    const after = github((document) => {
      const user = document.components.schemas['simple-user'];
      delete user.properties.gravatar_id;
      user.required = user.required.filter((name: string) => name !== 'gravatar_id');
    });
    const changes = await breakingChanges(before, after);
    expect(changes.length).toBeGreaterThan(200);
    expect(changes.every((change) => change.kind === 'removed-response-field')).toBe(true);
    expect(changes.every((change) => change.component === 'components/schemas/simple-user')).toBe(true);
    expect(changes).toContainEqual({
      operation: 'GET /repos/{owner}/{repo}/issues',
      kind: 'removed-response-field',
      at: 'response 200 application/json',
      field: '[].assignees[].gravatar_id',
      component: 'components/schemas/simple-user',
    });
    // One mark per operation and place: a user met many times in one response is named once.
    const keys = changes.map((change) => `${change.operation} ${change.at}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('finds the same in the contracts a refresh keeps as in the documents, through a packed round trip', async () => {
    const after = github((document) => {
      delete document.paths['/repos/{owner}/{repo}/issues/{issue_number}/lock'].delete;
      delete document.components.schemas['simple-user'].properties.login;
      parameter(document, '/repos/{owner}/{repo}/issues', 'get', 'creator').required = true;
    });
    const packed = await packContract(await openApiContract(before));
    // A tenth of the document, or less: it is kept in Redis with each upload.
    expect(packed.length).toBeLessThan(GITHUB_TEXT.length / 10);
    const kept = await unpackContract(packed);
    expect(kept).toBeDefined();
    const fromContracts = await breakingChanges(kept as Doc, await openApiContract(after));
    expect(fromContracts).toEqual(await breakingChanges(before, after));
    expect(fromContracts.length).toBeGreaterThan(200);
  });

  it('does not mark what clients keep working with', async () => {
    const old = api(
      {
        '/pets': {
          get: {
            parameters: [
              { name: 'limit', in: 'query', schema: { type: 'integer' } },
              { name: 'kind', in: 'query', schema: { type: 'string', enum: ['cat', 'dog'] } },
            ],
            responses: json({ type: 'array', items: { $ref: '#/components/schemas/Pet' } }),
          },
          post: {
            requestBody: {
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
            },
            responses: json({ $ref: '#/components/schemas/Pet' }, '201'),
          },
        },
      },
      { Pet: { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' } } } },
    );
    const widened = api(
      {
        '/pets': {
          get: {
            summary: 'every pet',
            parameters: [
              // integer to number, one more enum value, a new optional parameter.
              { name: 'limit', in: 'query', schema: { type: 'number' } },
              { name: 'kind', in: 'query', schema: { type: 'string', enum: ['cat', 'dog', 'bird'] } },
              { name: 'sort', in: 'query', schema: { type: 'string' } },
            ],
            responses: json({ type: 'array', items: { $ref: '#/components/schemas/Pet' } }),
          },
          post: {
            requestBody: {
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
            },
            // A response narrowed (a new field, an enum) is still what clients read.
            responses: json({ $ref: '#/components/schemas/Pet' }, '201'),
          },
        },
        '/owners': { get: { responses: json({ type: 'string' }) } },
      },
      {
        Pet: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            age: { type: 'integer' },
            color: { type: 'string', enum: ['black', 'white'] },
          },
        },
      },
    );
    expect(await breakingChanges(old, widened)).toEqual([]);
  });

  it('compares schemas that refer to themselves, and Swagger 2.0 parameters and bodies', async () => {
    const tree = (children: Doc) => ({
      swagger: '2.0',
      info: { title: 't', version: '1' },
      paths: {
        '/nodes': {
          post: {
            parameters: [
              { name: 'depth', in: 'query', type: 'number' },
              { name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/Node' } },
            ],
            responses: { '200': { description: 'ok', schema: { $ref: '#/definitions/Node' } } },
          },
        },
      },
      definitions: {
        Node: { type: 'object', properties: { name: { type: 'string' }, ...children } },
      },
    });
    const before = tree({ children: { type: 'array', items: { $ref: '#/definitions/Node' } }, id: {} });
    const after = tree({ children: { type: 'array', items: { $ref: '#/definitions/Node' } } });
    (after.paths['/nodes'].post.parameters[0] as Doc).type = 'integer';
    (after.definitions.Node as Doc).required = ['name'];
    expect(messages(await breakingChanges(before, after))).toEqual([
      'POST /nodes: narrowed query parameter depth: number → integer',
      'POST /nodes: field name of request body is now required (in definitions/Node)',
      'POST /nodes: removed field id of response 200 (in definitions/Node)',
    ]);
  });

  it('finds a change in a loop of schemas from whichever of them an operation starts', async () => {
    // Team → members[] → Member → team → Team: /teams meets Member inside the loop, /members outside.
    const loop = (teamProperties: Doc) =>
      api(
        {
          '/teams': { get: { responses: json({ $ref: '#/components/schemas/Team' }) } },
          '/members': { get: { responses: json({ $ref: '#/components/schemas/Member' }) } },
        },
        {
          Team: {
            type: 'object',
            properties: {
              members: { type: 'array', items: { $ref: '#/components/schemas/Member' } },
              ...teamProperties,
            },
          },
          Member: { type: 'object', properties: { team: { $ref: '#/components/schemas/Team' } } },
        },
      );
    const changes = await breakingChanges(loop({ slug: { type: 'string' } }), loop({}));
    expect(messages(changes)).toEqual([
      'GET /teams: removed field slug of response 200 application/json (in components/schemas/Team)',
      'GET /members: removed field team.slug of response 200 application/json (in components/schemas/Team)',
    ]);
  });

  it('marks the changelog lines of breaking changes and puts them first', async () => {
    const old = api({
      '/a': { get: { responses: json({ type: 'object', properties: { id: { type: 'string' } } }) } },
      '/b': {
        get: { parameters: [{ name: 'q', in: 'query', schema: { type: 'string' } }], responses: json({}) },
      },
      '/c': { delete: { responses: json({}) } },
    });
    const next = api({
      '/a': {
        get: { summary: 'A', responses: json({ type: 'object', properties: { id: { type: 'string' } } }) },
      },
      '/b': {
        get: {
          parameters: [{ name: 'q', in: 'query', required: true, schema: { type: 'string' } }],
          responses: json({}),
        },
      },
      '/d': { get: { responses: json({}) } },
    });
    const changes = diffOperations(await operationFingerprints(old), await operationFingerprints(next));
    const breaking = await breakingChanges(old, next);
    expect(summariseOperationChanges(changes, 20, breaking)).toEqual([
      'changed GET /b (breaking: query parameter q is now required)',
      'removed DELETE /c (breaking)',
      'added GET /d',
      'changed GET /a',
    ]);
    // Without marks, the changelog reads as it always did.
    expect(summariseOperationChanges(changes)).toEqual([
      'added GET /d',
      'changed GET /a',
      'changed GET /b',
      'removed DELETE /c',
    ]);
  });
});
