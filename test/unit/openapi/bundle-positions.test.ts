import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { loadOpenApiDocument } from '../../../src/openapi/load-openapi-document.js';
import { OpenApiInvalidError } from '../../../src/openapi/openapi-invalid-error.js';
import { expectSelfContainedAndValid } from '../../support/bundled-openapi-checks.js';
import { memoryOpenApiReader } from '../../support/memory-openapi-reader.js';

const load = (text: string, files: Record<string, string> = {}) =>
  loadOpenApiDocument(
    Buffer.from(text),
    memoryOpenApiReader(files),
    { maxBytes: 64 * 1024 * 1024, maxRefFiles: 200 },
    new AbortController().signal,
  );

const HEAD = "openapi: 3.0.3\ninfo: { title: t, version: '1' }\n";

describe('bundling: where a $ref may point and where it is copied', () => {
  it('gives a component the name the document gives it, and points every other $ref to the same file at it', async () => {
    const loaded = await load(
      `${HEAD}paths:
  /pets:
    get:
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: pet.yaml } } } }
components:
  schemas:
    Animal: { $ref: pet.yaml }
`,
      { 'pet.yaml': 'type: object\nproperties: { name: { type: string } }\n' },
    );
    expect(loaded.document).toMatchObject({
      paths: {
        '/pets': {
          get: {
            responses: {
              '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Animal' } } } },
            },
          },
        },
      },
      components: { schemas: { Animal: { type: 'object', properties: { name: { type: 'string' } } } } },
    });
    expect(Object.keys((loaded.document.components as { schemas: object }).schemas)).toEqual(['Animal']);
  });

  it('takes the names of an index of schemas in a file before any other $ref makes one up', async () => {
    const loaded = await load(
      `${HEAD}paths:
  /pets:
    get:
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: schemas/Pet.yaml } } } }
components:
  schemas: { $ref: schemas/_index.yaml }
`,
      {
        'schemas/_index.yaml': 'Animal: { $ref: Pet.yaml }\nTag: { $ref: Tag.yaml }\n',
        'schemas/Pet.yaml': 'type: object\nproperties: { tag: { $ref: Tag.yaml } }\n',
        'schemas/Tag.yaml': 'type: string\n',
      },
    );
    expect(loaded.document).toMatchObject({
      paths: {
        '/pets': {
          get: {
            responses: {
              '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Animal' } } } },
            },
          },
        },
      },
      components: {
        schemas: {
          Animal: { properties: { tag: { $ref: '#/components/schemas/Tag' } } },
          Tag: { type: 'string' },
        },
      },
    });
    expect(Object.keys((loaded.document.components as { schemas: object }).schemas)).toEqual([
      'Animal',
      'Tag',
    ]);
  });

  it('makes request bodies, examples, headers and callbacks components of 3.1, and copies webhooks', async () => {
    const loaded = await load(
      `openapi: 3.1.0
info: { title: t, version: '1' }
webhooks:
  created: { $ref: paths/hook.yaml }
paths:
  /pets:
    post:
      operationId: create
      requestBody: { $ref: bodies/pet.yaml }
      callbacks: { done: { $ref: callbacks/done.yaml } }
      responses:
        '201':
          description: created
          headers: { X-Rate: { $ref: headers/rate.yaml } }
          content:
            application/json:
              schema: { $ref: schemas/Pet.yaml, description: The pet created }
              examples: { rex: { $ref: examples/rex.yaml } }
    put:
      operationId: replace
      requestBody: { $ref: bodies/pet.yaml }
      responses:
        '200': { description: replaced, headers: { X-Rate: { $ref: headers/rate.yaml } } }
`,
      {
        'paths/hook.yaml':
          "post:\n  requestBody: { $ref: ../bodies/pet.yaml }\n  responses: { '200': { description: ok } }\n",
        'bodies/pet.yaml': 'content: { application/json: { schema: { $ref: ../schemas/Pet.yaml } } }\n',
        'callbacks/done.yaml':
          "'{$request.body#/url}': { post: { responses: { '200': { description: ok } } } }\n",
        'headers/rate.yaml': 'schema: { type: integer }\n',
        'examples/rex.yaml': 'value: { name: Rex }\n',
        'schemas/Pet.yaml': 'type: object\nproperties: { name: { type: string } }\n',
      },
    );
    await expectSelfContainedAndValid(loaded);
    expect(loaded.document).toMatchObject({
      webhooks: { created: { post: { requestBody: { $ref: '#/components/requestBodies/pet' } } } },
      components: {
        requestBodies: {
          pet: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
        },
        callbacks: { done: {} },
        headers: { rate: { schema: { type: 'integer' } } },
        examples: { rex: { value: { name: 'Rex' } } },
        schemas: { Pet: { type: 'object' } },
      },
    });
  });

  it('refuses a map of properties that holds itself, where no pointer may stand, naming where', async () => {
    const error = await load(
      `${HEAD}paths: {}
components:
  schemas:
    Tree: { type: object, properties: { $ref: tree-properties.yaml } }
`,
      { 'tree-properties.yaml': 'child: { type: object, properties: { $ref: tree-properties.yaml } }\n' },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenApiInvalidError);
    expect((error as OpenApiInvalidError).problems).toEqual([
      {
        file: 'tree-properties.yaml',
        pointer: '/child/properties',
        message: expect.stringContaining('names a value holding it, where OpenAPI allows no reference'),
      },
    ]);
  });

  it('refuses a pointer into a file that is neither JSON nor YAML', async () => {
    const error = await load(
      `${HEAD}paths:\n  /a:\n    get:\n      description: { $ref: 'docs/a.md#/intro' }\n      responses: { '204': { description: none } }\n`,
      { 'docs/a.md': '# A\n' },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenApiInvalidError);
    expect((error as OpenApiInvalidError).problems).toEqual([
      {
        pointer: '/paths/~1a/get/description',
        message:
          'has a $ref to "docs/a.md#/intro", a pointer into a file that is neither JSON nor YAML: name the whole file',
      },
    ]);
  });

  it('reads $refs inside code samples that a file of the tree holds, and keeps pointers in extensions as written', async () => {
    const loaded = await load(
      `${HEAD}paths:\n  /a: { $ref: paths/a.yaml }\nx-tagGroups: [{ name: All, tags: [{ $ref: '#/tags/0' }] }]\ntags: [{ name: a }]\n`,
      {
        'paths/a.yaml':
          "x-notes: { a: Use it once }\nget:\n  x-note: { $ref: '#/x-notes/a' }\n  x-codeSamples: [{ lang: Shell, source: { $ref: ../code/a.sh } }]\n  responses: { '204': { description: none } }\n",
        'code/a.sh': 'curl https://api.example/a\n',
      },
    );
    expect(loaded.document).toMatchObject({
      paths: {
        '/a': {
          get: { 'x-note': 'Use it once', 'x-codeSamples': [{ source: 'curl https://api.example/a\n' }] },
        },
      },
      'x-tagGroups': [{ tags: [{ $ref: '#/tags/0' }] }],
    });
  });
});

describe("bundling GitHub's descriptions", () => {
  for (const name of ['api.github.com.json', 'ghec.json']) {
    it(`reads no other file for ${name} and uploads its exact bytes`, async () => {
      const path = createRequire(import.meta.url).resolve(`@octokit/openapi/generated/${name}`);
      const text = await readFile(path, 'utf8');
      const loaded = await load(text);
      expect(loaded.refFiles).toBe(0);
      expect(loaded.text === text).toBe(true);
    }, 60_000);
  }
});
