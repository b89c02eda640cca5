import { describe, expect, it } from 'vitest';
import { loadOpenApiDocument } from '../../../src/openapi/load-openapi-document.js';
import { OpenApiInvalidError } from '../../../src/openapi/openapi-invalid-error.js';
import type { OpenApiSourceReader } from '../../../src/openapi/openapi-source-types.js';
import { jitterOf } from '../../../src/openapi/spec-jitter.js';
import { YAML_ALIAS_BOMB } from '../../support/yaml-alias-bomb.js';

/** A source whose `$ref`d files are in memory, by URL. */
function reader(files: Record<string, string> = {}): OpenApiSourceReader & { reads: string[] } {
  const reads: string[] = [];
  return {
    location: 'https://specs.example/api/openapi.yaml',
    label: 'https://specs.example/api/openapi.yaml',
    reads,
    read: async () => ({ kind: 'not-modified' }),
    readRef: async (location) => {
      reads.push(location);
      const text = files[location];
      if (text === undefined) throw new Error(`no file at ${location}`);
      return Buffer.from(text);
    },
  };
}

const signal = new AbortController().signal;
const load = (text: string, source = reader(), maxRefFiles = 200) =>
  loadOpenApiDocument(Buffer.from(text), source, { maxBytes: 1024 * 1024, maxRefFiles }, signal);

async function problemsOf(text: string, source = reader()) {
  const error = await load(text, source).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(OpenApiInvalidError);
  return (error as OpenApiInvalidError).problems;
}

describe('loadOpenApiDocument', () => {
  it('accepts Swagger 2.0, OpenAPI 3.0 and 3.1, in JSON and YAML, and uploads their exact text', async () => {
    const swagger = JSON.stringify({ swagger: '2.0', info: { title: 't', version: '1' }, paths: {} });
    const v30 = 'openapi: 3.0.3\ninfo: { title: t, version: "1" }\npaths: {}\n# a comment kept as is\n';
    const v31 = 'openapi: 3.1.0\ninfo: { title: t, version: "1" }\nwebhooks: {}\n';
    expect(await load(swagger)).toMatchObject({ version: '2.0', format: 'json', text: swagger, refFiles: 0 });
    expect(await load(v30)).toMatchObject({ version: '3.0', format: 'yaml', text: v30 });
    expect(await load(v31)).toMatchObject({ version: '3.1', text: v31 });
  });

  it('names schema problems by JSON pointer', async () => {
    const problems = await problemsOf(
      'openapi: 3.0.3\ninfo: { title: t }\npaths:\n  /pets:\n    get:\n      responses: {}\n      bogus: 1\n',
    );
    expect(problems).toContainEqual({ pointer: '/info', message: expect.stringContaining("'version'") });
    expect(problems).toContainEqual({ pointer: '/paths/~1pets/get/responses', message: expect.any(String) });
    expect(problems).toContainEqual({
      pointer: '/paths/~1pets/get',
      message: expect.stringContaining('bogus'),
    });
  });

  it('refuses what is not an OpenAPI document, and a dangling internal $ref', async () => {
    expect(await problemsOf('just: yaml\n')).toEqual([
      { pointer: '', message: expect.stringContaining('no openapi (3.x) or swagger (2.0) member') },
    ]);
    expect(await problemsOf('[1, 2]')).toEqual([{ pointer: '', message: 'is not an object' }]);
    const dangling = await problemsOf(
      "openapi: 3.0.3\ninfo: { title: t, version: '1' }\npaths:\n  /a:\n    get:\n      responses:\n        '200': { $ref: '#/components/responses/Nope' }\n",
    );
    expect(dangling[0]?.message).toContain('#/components/responses/Nope');
  });

  it('stops a YAML alias bomb instead of expanding it', async () => {
    const error = await load(YAML_ALIAS_BOMB).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenApiInvalidError);
    expect((error as Error).message).toContain('cannot be read as YAML');
  });

  it('reads $refs to relative files through the source and uploads one bundled document', async () => {
    const source = reader({
      'https://specs.example/api/schemas/pet.yaml':
        'Pet:\n  type: object\n  properties:\n    tag: { $ref: "../common.json#/Tag" }\n',
      'https://specs.example/api/common.json': '{"Tag": {"type": "string"}}',
    });
    const loaded = await load(
      "openapi: 3.1.0\ninfo: { title: t, version: '1' }\npaths:\n  /pets:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: { $ref: 'schemas/pet.yaml#/Pet' }\n",
      source,
    );
    expect(source.reads).toEqual([
      'https://specs.example/api/schemas/pet.yaml',
      'https://specs.example/api/common.json',
    ]);
    expect(loaded.refFiles).toBe(2);
    expect(loaded.text).not.toContain('pet.yaml');
    expect(loaded.text).toContain('tag:');
  });

  it('keeps a failure to read a $ref as that failure, not as an invalid document', async () => {
    const failing = reader();
    const error = await load(
      "openapi: 3.0.3\ninfo: { title: t, version: '1' }\npaths:\n  /a: { $ref: 'paths.yaml#/a' }\n",
      failing,
    ).catch((caught: unknown) => caught);
    expect(error).not.toBeInstanceOf(OpenApiInvalidError);
    expect((error as Error).message).toContain('no file at https://specs.example/api/paths.yaml');
  });
});

describe('loadOpenApiDocument: data and names are not references', () => {
  /** GitHub's description has both: `$ref` keys in example values, and a SCIM schema with a property named `$ref`. */
  const LITERALS = `openapi: 3.0.3
info: { title: t, version: '1' }
paths:
  /stats:
    get:
      x-sample: { $ref: '#/components/schemas/Member' }
      parameters:
        - name: q
          in: query
          schema: { type: object, default: { $ref: default.yaml }, enum: [{ $ref: enum.yaml }] }
          example: { $ref: example.yaml }
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Group' }
              examples:
                inline: { value: { $ref: inline.yaml, $id: not-an-id } }
                shared: { $ref: '#/components/examples/server-statistics' }
components:
  schemas:
    Group:
      type: object
      properties:
        $ref: { type: string }
        $id: { type: string }
        example: { $ref: '#/components/schemas/Member' }
    Member: { type: string }
  examples:
    server-statistics:
      value: [{ actions_stats: { $ref: server-statistics-actions.yaml } }]
`;

  it('reads no file for a $ref in an example, a default or an enum, nor for a pointer in an extension, and uploads the exact bytes', async () => {
    const source = reader();
    const loaded = await load(LITERALS, source);
    expect(source.reads).toEqual([]);
    expect(loaded).toMatchObject({ version: '3.0', refFiles: 0, text: LITERALS });
  });

  it('takes a property named $ref as a name, and names problems below it by their real pointer', async () => {
    const problems = await problemsOf(LITERALS.replace('$ref: { type: string }', '$ref: { type: strin }'));
    expect(problems).toEqual([
      {
        pointer: '/components/schemas/Group/properties/$ref/type',
        message: expect.stringContaining('must be one of'),
      },
    ]);
  });

  it('still follows a reference held by a property named $ref', async () => {
    const source = reader({ 'https://specs.example/api/member.yaml': 'type: integer\n' });
    const loaded = await load(
      LITERALS.replace('$ref: { type: string }', '$ref: { $ref: member.yaml }'),
      source,
    );
    expect(source.reads).toEqual(['https://specs.example/api/member.yaml']);
    expect(loaded.refFiles).toBe(1);
    expect(loaded.document).toMatchObject({
      components: {
        schemas: {
          Group: { properties: { $ref: { $ref: '#/components/schemas/member' } } },
          member: { type: 'integer' },
        },
      },
    });
  });

  it('refuses duplicate keys with their line and column', async () => {
    const yaml =
      "openapi: 3.0.3\ninfo: { title: t, version: '1' }\npaths:\n  /a:\n    get: { responses: {} }\n    get: { responses: {} }\n";
    expect(await problemsOf(yaml)).toEqual([
      {
        pointer: '',
        message:
          'has the key "get" twice in one object: parsers keep only one of them, so remove or rename one',
        line: 6,
        column: 5,
      },
    ]);
    const json = '{"openapi": "3.0.3", "info": {"title": "t", "version": "1"},\n "paths": {}, "paths": {}}';
    const error = await load(json).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'OPENAPI_INVALID' });
    expect((error as Error).message).toContain('line 2, column 15: has the key "paths" twice in one object');
  });
});

describe('jitterOf', () => {
  it('spreads specs over the window, the same for a spec every time', () => {
    const delays = Array.from({ length: 100 }, (_, i) => jitterOf(`org/spec-${i}`, 60_000));
    expect(delays.every((delay) => delay >= 0 && delay < 60_000)).toBe(true);
    expect(new Set(delays.map((delay) => Math.floor(delay / 6_000))).size).toBeGreaterThanOrEqual(8);
    expect(jitterOf('org/spec-1', 60_000)).toBe(delays[1]);
    expect(jitterOf('org/spec-1', 0)).toBe(0);
  });
});
