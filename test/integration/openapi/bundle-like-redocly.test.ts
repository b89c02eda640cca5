import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSourceReader } from '../../../src/openapi/file-source-reader.js';
import { fragmentTokens, valueAt } from '../../../src/openapi/json-pointer.js';
import { loadOpenApiDocument } from '../../../src/openapi/load-openapi-document.js';
import { expectSelfContainedAndValid } from '../../support/bundled-openapi-checks.js';
import { tempDir } from '../../support/test-context.js';

const LIMITS = { maxBytes: 64 * 1024 * 1024, timeoutMs: 10_000 };

/** Writes `files` (path → text) under a new folder; returns the folder. */
async function tree(files: Record<string, string>): Promise<string> {
  const dir = await tempDir('bundle');
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

/** Loads `file` of `dir` as the daemon does a local spec, with its `root` when given. */
async function load(dir: string, file: string, root?: string, maxRefFiles = 1000) {
  const reader = new FileSourceReader({ file, ...(root === undefined ? {} : { root }) }, dir, LIMITS);
  const read = await reader.read();
  if (read.kind !== 'read') throw new Error('a file is always read');
  return loadOpenApiDocument(
    read.bytes,
    reader,
    { maxBytes: LIMITS.maxBytes, maxRefFiles },
    AbortSignal.timeout(60_000),
  );
}

/** DigitalOcean's shape: `properties` maps by $ref shared by two schemas, path items in files. */
const SHARED_PROPERTIES = {
  'openapi.yaml': `openapi: 3.0.3
info: { title: Droplets, version: '2' }
paths:
  /droplets: { $ref: resources/droplets/droplets.yml }
  /droplets/{id}: { $ref: resources/droplets/paths.yml#/droplet }
  /volumes/{id}: { $ref: resources/droplets/paths.yml#/volume }
`,
  'resources/droplets/droplets.yml': `get:
  operationId: droplets_list
  responses:
    '200':
      description: The droplets
      content:
        application/json:
          schema: { type: array, items: { $ref: models/droplet.yml } }
          examples: { $ref: examples.yml }
    default: { $ref: ../shared/responses/unexpected_error.yml }
post:
  operationId: droplets_create
  requestBody:
    content: { application/json: { schema: { $ref: models/droplet_create.yml } } }
  responses:
    '202': { $ref: ../shared/responses/accepted.yml }
    default: { $ref: ../shared/responses/unexpected_error.yml }
`,
  'resources/droplets/paths.yml': `droplet:
  get:
    operationId: droplets_get
    parameters: [{ $ref: ../shared/parameters.yml#/droplet_id }]
    responses:
      '200':
        description: One droplet
        content: { application/json: { schema: { $ref: models/droplet.yml } } }
      default: { $ref: ../shared/responses/unexpected_error.yml }
volume:
  get:
    operationId: volumes_get
    parameters: [{ $ref: ../shared/parameters.yml#/droplet_id }]
    responses:
      '200':
        description: One volume
        content: { application/json: { schema: { $ref: ../volumes/models/Error.yml } } }
`,
  'resources/droplets/examples.yml': 'one: { value: [{ name: web-1 }] }\n',
  'resources/droplets/models/attributes.yml': `name: { type: string, example: web-1 }
size: { type: string }
tags: { type: array, items: { type: string } }
`,
  'resources/droplets/models/droplet.yml': `type: object
properties: { $ref: attributes.yml }
`,
  'resources/droplets/models/droplet_create.yml': `type: object
required: [name]
properties: { $ref: attributes.yml }
`,
  'resources/shared/parameters.yml': `droplet_id:
  name: id
  in: path
  required: true
  schema: { type: integer }
`,
  'resources/shared/responses/unexpected_error.yml': `description: Unexpected error
content: { application/json: { schema: { $ref: ../models/Error.yml } } }
`,
  'resources/shared/responses/accepted.yml': 'description: Accepted\n',
  'resources/shared/models/Error.yml': 'type: object\nproperties: { id: { type: string } }\n',
  'resources/volumes/models/Error.yml': 'type: object\nproperties: { volume: { type: string } }\n',
};

describe('bundling a tree of files as Redocly does', () => {
  it('copies a properties map named by $ref at each use, and makes reused schemas, responses and parameters components', async () => {
    const dir = await tree(SHARED_PROPERTIES);
    const loaded = await load(dir, 'openapi.yaml');
    await expectSelfContainedAndValid(loaded);
    const attributes = { name: { type: 'string', example: 'web-1' }, size: { type: 'string' } };
    expect(loaded.document).toMatchObject({
      paths: {
        // Path items have no component in 3.0: each is copied, two from one file here.
        '/droplets/{id}': { get: { parameters: [{ $ref: '#/components/parameters/droplet_id' }] } },
        '/volumes/{id}': { get: { operationId: 'volumes_get' } },
      },
      components: {
        schemas: {
          droplet: { type: 'object', properties: attributes },
          droplet_create: { required: ['name'], properties: attributes },
        },
        responses: { accepted: { description: 'Accepted' } },
        parameters: { droplet_id: { name: 'id', in: 'path' } },
      },
    });
    // Two files named Error.yml: the name met second is made unique; each `$ref` names its own.
    const { document } = loaded;
    const at = (...tokens: string[]) => {
      const found = valueAt(document, tokens);
      return found.found ? found.value : undefined;
    };
    expect(Object.keys(at('components', 'schemas') as object)).toEqual(
      expect.arrayContaining(['Error', 'Error-2']),
    );
    const errorRef = at(
      ...['components', 'responses', 'unexpected_error', 'content', 'application/json', 'schema', '$ref'],
    );
    expect(at(...(fragmentTokens(String(errorRef).slice(1)) ?? []))).toEqual({
      type: 'object',
      properties: { id: { type: 'string' } },
    });
    expect(
      at('paths', '/droplets', 'get', 'responses', '200', 'content', 'application/json', 'examples'),
    ).toEqual({
      one: { value: [{ name: 'web-1' }] },
    });
    expect(loaded.refFiles).toBe(11);
  });

  it('puts the text of code samples and markdown files where their $refs were', async () => {
    const sample = 'import pydo\n\nclient = pydo.Client(token="$TOKEN")\nclient.droplets.list()\n';
    const dir = await tree({
      'openapi.yaml': `openapi: 3.1.0
info: { title: Samples, version: '1', description: { $ref: docs/intro.md } }
paths:
  /droplets:
    get:
      operationId: list
      x-codeSamples:
        - { lang: Python, source: { $ref: code/list.py } }
        - { lang: cURL, source: 'curl https://api.example/droplets' }
      responses: { '200': { description: { $ref: docs/ok.md } } }
`,
      'docs/intro.md': '# Droplets\n\nVirtual machines.\n',
      'docs/ok.md': 'The **droplets**.\n',
      'code/list.py': sample,
    });
    const loaded = await load(dir, 'openapi.yaml');
    await expectSelfContainedAndValid(loaded);
    expect(loaded.document).toMatchObject({
      info: { description: '# Droplets\n\nVirtual machines.\n' },
      paths: {
        '/droplets': {
          get: {
            'x-codeSamples': [{ lang: 'Python', source: sample }, { lang: 'cURL' }],
            responses: { '200': { description: 'The **droplets**.\n' } },
          },
        },
      },
    });
  });

  it('points discriminator mappings that name files at the components their schemas became', async () => {
    const dir = await tree({
      'openapi.yaml': `openapi: 3.0.3
info: { title: Pets, version: '1' }
paths:
  /pets:
    get:
      responses:
        '200':
          description: A pet
          content: { application/json: { schema: { $ref: schemas/Pet.yaml } } }
`,
      'schemas/Pet.yaml': `oneOf: [{ $ref: ./Cat.yaml }, { $ref: './Dog.yaml#/Dog' }, { $ref: ./Lizard.yaml }]
discriminator:
  propertyName: kind
  mapping: { cat: ./Cat.yaml, dog: './Dog.yaml#/Dog', lizard: ./Lizard.yaml, bird: Bird }
`,
      'schemas/Cat.yaml': 'type: object\nproperties: { kind: { type: string }, purrs: { type: boolean } }\n',
      'schemas/Dog.yaml':
        'Dog:\n  type: object\n  properties: { kind: { type: string }, barks: { type: boolean } }\n',
      'schemas/Lizard.yaml': 'type: object\nproperties: { kind: { type: string } }\n',
    });
    const loaded = await load(dir, 'openapi.yaml');
    await expectSelfContainedAndValid(loaded);
    expect(loaded.document).toMatchObject({
      components: {
        schemas: {
          Pet: {
            oneOf: [
              { $ref: '#/components/schemas/Cat' },
              { $ref: '#/components/schemas/Dog' },
              { $ref: '#/components/schemas/Lizard' },
            ],
            discriminator: {
              mapping: {
                cat: '#/components/schemas/Cat',
                dog: '#/components/schemas/Dog',
                lizard: '#/components/schemas/Lizard',
                // A schema's name is not a file: it stays.
                bird: 'Bird',
              },
            },
          },
          Cat: { properties: { purrs: { type: 'boolean' } } },
          Dog: { properties: { barks: { type: 'boolean' } } },
        },
      },
    });
  });

  it('reads files above the spec folder only below root, and bundles them then', async () => {
    const dir = await tree({
      'specs/api/openapi.yaml': `swagger: '2.0'
info: { title: Shared, version: '1' }
paths:
  /things:
    get:
      parameters: [{ $ref: ../../shared/parameters.yaml#/limit }]
      responses:
        '200': { description: Things, schema: { type: array, items: { $ref: ../../shared/Thing.yaml } } }
        default: { $ref: ../../shared/error.yaml }
  /things/{id}:
    get:
      parameters: [{ name: id, in: path, required: true, type: string }, { $ref: ../../shared/parameters.yaml#/limit }]
      responses:
        '200': { description: A thing, schema: { $ref: ../../shared/Thing.yaml } }
        default: { $ref: ../../shared/error.yaml }
`,
      'shared/parameters.yaml': 'limit: { name: limit, in: query, type: integer }\n',
      'shared/Thing.yaml':
        'type: object\nproperties: { id: { type: string }, parts: { type: array, items: { $ref: Thing.yaml } } }\n',
      'shared/error.yaml':
        'description: Failed\nschema: { type: object, properties: { message: { type: string } } }\n',
    });
    const refused = await load(dir, 'specs/api/openapi.yaml').catch((caught: unknown) => caught);
    expect(refused).toMatchObject({ code: 'SOURCE_REFUSED', setting: 'root' });
    const loaded = await load(dir, 'specs/api/openapi.yaml', '.');
    await expectSelfContainedAndValid(loaded);
    expect(loaded.document).toMatchObject({
      definitions: { Thing: { properties: { parts: { items: { $ref: '#/definitions/Thing' } } } } },
      parameters: { limit: { name: 'limit' } },
      responses: { error: { description: 'Failed' } },
    });
  });

  it('bundles a tree of 300 and more files into one valid document', async () => {
    const files: Record<string, string> = {};
    const paths: string[] = [];
    for (let index = 0; index < 150; index += 1) {
      paths.push(`  /things/t${index}: { $ref: paths/t${index}.yaml }`);
      files[`paths/t${index}.yaml`] = `get:
  operationId: get${index}
  responses:
    '200':
      description: ok
      content: { application/json: { schema: { $ref: ../schemas/Thing${index}.yaml } } }
    default: { $ref: ../responses/Error.yaml }
`;
      files[`schemas/Thing${index}.yaml`] = `type: object
properties:
  id: { $ref: Id.yaml }
  next: { $ref: Thing${(index + 1) % 150}.yaml }
  common: { type: object, properties: { $ref: common-properties.yaml } }
`;
    }
    files['schemas/Id.yaml'] = 'type: string\nformat: uuid\n';
    files['schemas/common-properties.yaml'] = 'created: { type: string, format: date-time }\n';
    files['responses/Error.yaml'] = 'description: Failed\n';
    files['openapi.yaml'] =
      `openapi: 3.0.3\ninfo: { title: Many, version: '1' }\npaths:\n${paths.join('\n')}\n`;
    const dir = await tree(files);
    const loaded = await load(dir, 'openapi.yaml');
    expect(loaded.refFiles).toBe(303);
    await expectSelfContainedAndValid(loaded);
    const schemas = (loaded.document as { components: { schemas: Record<string, unknown> } }).components
      .schemas;
    expect(Object.keys(schemas)).toHaveLength(151);
    expect(schemas.Thing7).toMatchObject({
      properties: { next: { $ref: '#/components/schemas/Thing8' }, common: { properties: { created: {} } } },
    });
  });
});
