// A generated OpenAPI 3.1 document of about the size asked for, in YAML: operations that each
// reach a schema of their own through `$ref`, with prose, so that parsing, validation and
// fingerprinting cost what they cost on a real spec of that size (Stripe's, DigitalOcean's).
import { stringify } from 'yaml';

/** Bytes of YAML each operation and its schema come to, about. */
const BYTES_PER_ITEM = 2270;

export function largeOpenApiYaml(bytes: number, title = 'Large API'): string {
  const items = Math.max(1, Math.round(bytes / BYTES_PER_ITEM));
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  for (let item = 0; item < items; item += 1) {
    const fields = Array.from({ length: 12 }, (_, field) => [
      `field${field}`,
      {
        type: field % 2 === 0 ? 'integer' : 'string',
        description: `Field ${field} of thing ${item}, as the service returns it`,
        example: `example-${item}-${field}`,
      },
    ]);
    schemas[`Thing${item}`] = {
      type: 'object',
      description: `Thing number ${item}, with the fields a client reads`,
      properties: Object.fromEntries(fields),
    };
    paths[`/things${item}/{id}`] = {
      get: {
        operationId: `getThing${item}`,
        summary: `Get thing ${item}`,
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': {
            description: 'the thing',
            content: { 'application/json': { schema: { $ref: `#/components/schemas/Thing${item}` } } },
          },
        },
      },
    };
  }
  const document = { openapi: '3.1.0', info: { title, version: '1' }, paths, components: { schemas } };
  return stringify(document, { lineWidth: 0 });
}
