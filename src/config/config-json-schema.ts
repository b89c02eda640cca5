// The JSON Schema of the configuration file, generated from the zod schema docsync validates with,
// so that editors (through yaml-language-server) complete and check docsync.yaml as people type.
// It describes what people write (durations as `30s`, sizes as `5MiB`), and every value may also be
// a `${VAR}` reference, which docsync reads before it validates.
import { z } from 'zod';
import { CONFIG_DESCRIPTIONS } from './config-descriptions.js';
import { configFields } from './config-schema.js';
import { jsonSchemaHints } from './json-schema-hints.js';

export type JsonSchema = Record<string, unknown>;

/** Where the committed copy lives, relative to the repository. */
export const CONFIG_JSON_SCHEMA_PATH = 'config/docsync.schema.json';

/** A string holding `${`: a reference to the environment, whatever type the value has once read. */
const ENV_REFERENCE: JsonSchema = {
  type: 'string',
  pattern: '\\$\\{',
  $comment: 'a ${VAR} or ${VAR:-default} reference, read from the environment before validation',
};

/** The schema as validated against the file people write, `${VAR}` references not yet read. */
export function configInputJsonSchema(): JsonSchema {
  const schema = toInputJsonSchema(configFields);
  forEachKey(schema, (path, node) => {
    const description = CONFIG_DESCRIPTIONS[path];
    if (description !== undefined) node.description = description;
  });
  return schema;
}

/**
 * Calls `visit` with the path (`mappings[].git.poll`) and schema of every key, in every branch of
 * a union (a key of two branches is visited twice). `forms` is the number of branches of the union
 * whose branch holds the key directly, 1 when none does.
 */
export function forEachKey(
  schema: JsonSchema,
  visit: (path: string, node: JsonSchema, forms: number) => void,
): void {
  const walk = (node: unknown, path: string, forms = 1): void => {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return;
    const schemaNode = node as JsonSchema;
    for (const [name, child] of Object.entries((schemaNode.properties ?? {}) as Record<string, JsonSchema>)) {
      const childPath = path === '' ? name : `${path}.${name}`;
      visit(childPath, child, forms);
      walk(child, childPath);
    }
    if (typeof schemaNode.items === 'object') walk(schemaNode.items, `${path}[]`);
    for (const union of ['anyOf', 'oneOf', 'allOf'] as const) {
      const branches = schemaNode[union];
      if (Array.isArray(branches)) for (const branch of branches) walk(branch, path, branches.length);
    }
  };
  walk(schema, '');
}

/** The committed schema: the input schema, each value also allowed as a `${VAR}` reference. */
export function configJsonSchema(): JsonSchema {
  const schema = allowEnvReferences(configInputJsonSchema());
  return {
    $schema: schema.$schema,
    title: 'docsync configuration',
    description:
      'The configuration of docsync (docsync.yaml): the service, Redis, the HTTP server, and the mappings between git folders and spaces.',
    ...Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$schema')),
  };
}

function toInputJsonSchema(schema: z.core.$ZodType): JsonSchema {
  return z.toJSONSchema(schema, {
    io: 'input',
    target: 'draft-07',
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      const target = jsonSchema as JsonSchema;
      const hint = jsonSchemaHints.get(zodSchema);
      const replacement =
        hint?.schema ??
        (hint?.as === undefined ? undefined : withoutKeys(toInputJsonSchema(hint.as), ['$schema']));
      if (replacement !== undefined) {
        for (const key of Object.keys(target)) if (key !== 'description') delete target[key];
        Object.assign(target, structuredClone(replacement));
      }
      const def = zodSchema._zod.def as { type: string; innerType?: z.core.$ZodType; defaultValue?: unknown };
      if (def.type === 'default' && def.innerType !== undefined) {
        const inner = jsonSchemaHints.get(def.innerType);
        if (inner?.formatDefault !== undefined) target.default = inner.formatDefault(def.defaultValue);
      }
    },
  }) as JsonSchema;
}

/**
 * Every value that is not an object or an array may also be written as a `${VAR}` reference: the
 * file holds the reference, and only the value read from the environment is validated.
 */
function allowEnvReferences(schema: JsonSchema): JsonSchema {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const entries = Object.entries(node as JsonSchema);
    const copy: JsonSchema = {};
    for (const [key, value] of entries) {
      copy[key] =
        key === 'properties'
          ? Object.fromEntries(
              Object.entries(value as JsonSchema).map(([name, sub]) => [name, orReference(walk(sub))]),
            )
          : key === 'items' || key === 'additionalProperties'
            ? typeof value === 'object' && value !== null
              ? orReference(walk(value))
              : value
            : walk(value);
    }
    return copy;
  };
  return walk(schema) as JsonSchema;
}

function orReference(node: unknown): unknown {
  if (node === null || typeof node !== 'object') return node;
  const schema = node as JsonSchema;
  if (schema.type === 'object' || schema.type === 'array' || Object.keys(schema).length === 0) return schema;
  // A plain string takes a reference as it is; a constrained one (pattern, length, URL) may not.
  const constraints = Object.keys(schema).filter(
    (key) => !['type', 'description', 'default', '$comment'].includes(key),
  );
  const plainString = constraints.every((key) => key === 'minLength' && (schema.minLength as number) <= 1);
  if (schema.type === 'string' && plainString) return schema;
  const { description, default: fallback, ...rest } = schema;
  return {
    ...(description === undefined ? {} : { description }),
    ...(fallback === undefined ? {} : { default: fallback }),
    anyOf: [rest, ENV_REFERENCE],
  };
}

function withoutKeys(schema: JsonSchema, keys: readonly string[]): JsonSchema {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => !keys.includes(key)));
}
