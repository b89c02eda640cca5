// What a value of an OpenAPI document is, from the keys that lead to it: an object whose `$ref`
// is a reference, a map whose keys are names, or data. A `$ref` inside an example, a default or
// an `x-` extension is data, and a schema property named `$ref` is a name: never references.

/**
 * - `node`: an OpenAPI object or a schema; its `$ref` is a reference, its keys are keywords.
 * - `names`: a map of names (`properties`, `components.schemas`, `content`...); each value is a node.
 * - `names-x`: the same, where `x-` keys are extensions (`paths`, `responses`).
 * - `data-names`: a map of Example or Link objects (`examples`, `links`).
 * - `ref-or-data`: an Example or Link object: a reference, else data (`value`, link parameters).
 * - `data`: literal data; nothing in it is a reference or a name.
 */
export type Position = 'node' | 'names' | 'names-x' | 'data-names' | 'ref-or-data' | 'data';

/** Keywords whose value is data in every OpenAPI object and schema that has them. */
const DATA_KEYS: ReadonlySet<string> = new Set(['example', 'default', 'enum', 'const']);

/** Keywords whose value maps names to nodes, in schemas and OpenAPI objects of 2.0 to 3.2. */
const NAME_KEYS: ReadonlySet<string> = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'schemas',
  'parameters',
  'requestBodies',
  'headers',
  'securitySchemes',
  'securityDefinitions',
  'content',
  'encoding',
  'variables',
  'pathItems',
  'webhooks',
  'callbacks',
  'mediaTypes',
]);

/** Maps of names that also take `x-` extensions. */
const NAME_X_KEYS: ReadonlySet<string> = new Set(['paths', 'responses']);

/** The keys JSON Schema tools read as pointers or identifiers wherever they find them. */
const POINTER_WORDS: ReadonlySet<string> = new Set([
  '$ref',
  '$id',
  '$anchor',
  '$dynamicRef',
  '$dynamicAnchor',
  '$schema',
]);

export interface PositionRules {
  /** Swagger 2.0: `examples` maps media types to literal examples, not to Example objects. */
  swagger2: boolean;
}

export function rulesOf(document: Record<string, unknown>): PositionRules {
  return { swagger2: typeof document.swagger === 'string' };
}

/** The position of `parent[key]`, given the position of `parent` (an object, not an array). */
export function childPosition(parent: Position, key: string, value: unknown, rules: PositionRules): Position {
  switch (parent) {
    case 'data':
    case 'ref-or-data':
      return 'data';
    case 'names':
      return 'node';
    case 'names-x':
      return key.startsWith('x-') ? 'data' : 'node';
    case 'data-names':
      return 'ref-or-data';
    case 'node':
      if (key.startsWith('x-') || DATA_KEYS.has(key)) return 'data';
      if (key === 'examples')
        return Array.isArray(value) || rules.swagger2 ? 'data' : isMap(value) ? 'data-names' : 'data';
      if (key === 'links') return isMap(value) ? 'data-names' : 'data';
      if (NAME_KEYS.has(key)) return isMap(value) ? 'names' : 'node';
      if (NAME_X_KEYS.has(key)) return isMap(value) ? 'names-x' : 'node';
      return 'node';
  }
}

/** The position of the items of an array at `parent`: `allOf`, `parameters`... hold nodes. */
export function itemPosition(parent: Position): Position {
  return parent === 'node' || parent === 'names' || parent === 'names-x' ? 'node' : 'data';
}

/**
 * Whether `object`, at `position`, is a reference: a string `$ref` anywhere but in data. A map of
 * names with a string `$ref` is taken as a reference too (some tools write `paths: { $ref: ... }`);
 * a property named `$ref` has a schema, never a string, as its value.
 */
export function isReference(position: Position, object: Record<string, unknown>): boolean {
  return position !== 'data' && typeof object.$ref === 'string';
}

/**
 * Whether key `key` of an object at `position` is data or a name that JSON Schema tools would read
 * as a pointer (`$ref`, `$id`...): a property named `$id`, a `$ref` inside an example.
 */
export function isMisleadingKey(position: Position, key: string, value: unknown): boolean {
  if (!POINTER_WORDS.has(key)) return false;
  if (position === 'data') return true;
  if (position === 'node') return false;
  // In a map of names or an Example object, only a string `$ref` is a reference.
  return key !== '$ref' || typeof value !== 'string';
}

/** One step back towards the root: the path of a value without building an array per value. */
export interface Trail {
  readonly up: Trail | undefined;
  readonly key: string;
}

export function tokensOf(trail: Trail | undefined): string[] {
  const tokens: string[] = [];
  for (let step = trail; step !== undefined; step = step.up) tokens.push(step.key);
  return tokens.reverse();
}

export type Container = Record<string, unknown> | unknown[];

function isMap(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
