import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { fragmentTokens, valueAt } from '../../../src/openapi/json-pointer.js';
import { loadOpenApiDocument } from '../../../src/openapi/load-openapi-document.js';
import { OpenApiInvalidError } from '../../../src/openapi/openapi-invalid-error.js';
import { memoryOpenApiReader } from '../../support/memory-openapi-reader.js';

const load = (text: string, files: Record<string, string>, maxRefFiles = 200) => {
  const source = memoryOpenApiReader(files);
  return {
    source,
    loaded: loadOpenApiDocument(
      Buffer.from(text),
      source,
      { maxBytes: 1024 * 1024, maxRefFiles },
      new AbortController().signal,
    ),
  };
};

/** Every `$ref` string of a bundled document (it has no examples to tell apart). */
function refsOf(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) =>
    key === '$ref' && typeof child === 'string' ? [child] : refsOf(child),
  );
}

/** The layout of Redocly's multi-file starter: path items in files named after templated paths. */
const STARTER = {
  'openapi.yaml': `openapi: 3.0.3
info: { title: Cafe, version: '1' }
paths:
  /menu-item-images/{menuItemId}:
    $ref: paths/menu-item-images_{menuItemId}.yaml
  /menu-items/{menuItemId}:
    $ref: paths/menu-items_{menuItemId}.yaml
components:
  schemas:
    Problem: { type: object, properties: { title: { type: string } } }
`,
  'paths/menu-item-images_{menuItemId}.yaml': `get:
  parameters: [{ $ref: ../components/parameters/menuItemId.yaml }]
  responses:
    '200':
      description: The image
      content: { image/png: { schema: { $ref: ../components/schemas/Image.yaml } } }
put:
  parameters: [{ $ref: ../components/parameters/menuItemId.yaml }]
  requestBody:
    content: { image/png: { schema: { $ref: ../components/schemas/Image.yaml } } }
  responses:
    '204': { description: Saved }
    default:
      description: Failed
      content: { application/json: { schema: { $ref: ../openapi.yaml#/components/schemas/Problem } } }
`,
  'paths/menu-items_{menuItemId}.yaml': `get:
  parameters: [{ $ref: ../components/parameters/menuItemId.yaml }]
  responses:
    '200':
      description: The item
      content:
        application/json:
          schema: { $ref: ../components/schemas/MenuItem.yaml, description: One item of the menu }
`,
  'components/parameters/menuItemId.yaml':
    'name: menuItemId\nin: path\nrequired: true\nschema: { type: string }\n',
  'components/schemas/Image.yaml': 'type: string\nformat: binary\n',
  'components/schemas/MenuItem.yaml': `type: object
properties:
  name: { type: string }
  image: { $ref: Image.yaml }
  related: { type: array, items: { $ref: '#' } }
`,
};

describe('bundling $refs to other files', () => {
  it('bundles templated paths across files into a document whose pointers are valid URI references', async () => {
    const { 'openapi.yaml': main, ...files } = STARTER;
    const { source, loaded } = load(main, files);
    const { document, text, refFiles, version } = await loaded;
    expect(version).toBe('3.0');
    expect(refFiles).toBe(5);
    expect(new Set(source.reads).size).toBe(5);
    const refs = refsOf(parse(text));
    // As Redocly's bundle: path items are copied in place (no component may hold one in 3.0), and
    // the parameters and schemas they name become components, named after their files.
    expect(new Set(refs)).toEqual(
      new Set([
        '#/components/parameters/menuItemId',
        '#/components/schemas/Image',
        '#/components/schemas/Problem',
        '#/components/schemas/MenuItem',
      ]),
    );
    // Every pointer is a URI fragment without raw braces, and names a value of the bundle.
    for (const ref of refs) {
      expect(ref).toMatch(/^#(\/[A-Za-z0-9\-._~!$&'()*+,;=:@%]*)*$/);
      expect(valueAt(document, fragmentTokens(ref.slice(1)) ?? ['?'])).toMatchObject({ found: true });
    }
    // A $ref back into the document becomes internal; siblings of a schema's $ref stay beside it.
    expect(
      valueAt(document, ['paths', '/menu-item-images/{menuItemId}', 'put', 'responses', 'default']),
    ).toEqual({
      found: true,
      value: expect.objectContaining({
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Problem' } } },
      }),
    });
    const itemContent = ['paths', '/menu-items/{menuItemId}', 'get', 'responses', '200', 'content'];
    expect(valueAt(document, itemContent)).toMatchObject({
      value: {
        'application/json': {
          schema: { $ref: '#/components/schemas/MenuItem', description: 'One item of the menu' },
        },
      },
    });
    // MenuItem refers to itself (`#`): its component refers to itself.
    expect(document).toMatchObject({
      components: {
        schemas: {
          Image: { type: 'string', format: 'binary' },
          MenuItem: {
            properties: {
              image: { $ref: '#/components/schemas/Image' },
              related: { items: { $ref: '#/components/schemas/MenuItem' } },
            },
          },
        },
        parameters: { menuItemId: { name: 'menuItemId', in: 'path' } },
      },
    });
  });

  it('reads at most maxRefFiles files, and says which key to raise', async () => {
    const { 'openapi.yaml': main, ...files } = STARTER;
    const error = await load(main, files, 4).loaded.catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'SOURCE_TOO_LARGE' });
    expect((error as Error).message).toBe(
      'openapi.yaml: its $refs name more than 4 files; raise maxRefFiles of the spec if they should all be read',
    );
    expect((await load(main, files, 5).loaded).refFiles).toBe(5);
    const none = await load(main, files, 0).loaded.catch((caught: unknown) => caught);
    expect(none).toMatchObject({ code: 'SOURCE_TOO_LARGE' });
  });

  it('names the file and the place of a problem in a file a $ref names', async () => {
    const { 'openapi.yaml': main, ...files } = STARTER;
    const broken = await load(main, {
      ...files,
      'components/schemas/Image.yaml': 'type: string\ntype: binary\n',
    }).loaded.catch((caught: unknown) => caught);
    expect(broken).toBeInstanceOf(OpenApiInvalidError);
    expect((broken as OpenApiInvalidError).problems).toEqual([
      {
        file: 'components/schemas/Image.yaml',
        pointer: '',
        message: expect.stringContaining('has the key "type" twice in one object'),
        line: 2,
        column: 1,
      },
    ]);

    const dangling = await load(main, {
      ...files,
      'components/schemas/MenuItem.yaml':
        'type: object\nproperties: { image: { $ref: "Image.yaml#/nope" } }\n',
    }).loaded.catch((caught: unknown) => caught);
    expect((dangling as OpenApiInvalidError).problems).toEqual([
      {
        file: 'components/schemas/MenuItem.yaml',
        pointer: '/properties/image',
        message:
          'has a $ref to "Image.yaml#/nope", but components/schemas/Image.yaml has nothing at #/nope: check the pointer',
      },
    ]);
    expect((dangling as Error).message).toContain(
      'components/schemas/MenuItem.yaml#/properties/image has a $ref',
    );
  });
});
