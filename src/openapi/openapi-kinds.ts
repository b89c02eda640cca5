// Which OpenAPI object a value is, from the keys that lead to it: a schema, a response, a
// parameter... The bundler needs it to tell where a `$ref` may point into `components` (as Redocly
// does) and where the value it names must be copied, because no Reference Object is allowed there.
import type { PositionRules } from './openapi-positions.js';

export type Kind =
  | 'root'
  | 'components'
  | 'schema'
  | 'schema-map'
  | 'schema-list'
  | 'response'
  | 'response-map'
  | 'parameter'
  | 'parameter-map'
  | 'parameter-list'
  | 'header'
  | 'header-map'
  | 'example'
  | 'example-map'
  | 'request-body'
  | 'request-body-map'
  | 'link'
  | 'link-map'
  | 'callback'
  | 'callback-map'
  | 'path-item'
  | 'path-item-map'
  | 'operation'
  | 'media-type'
  | 'media-type-map'
  | 'encoding'
  | 'encoding-map'
  | 'security-scheme'
  | 'security-scheme-map'
  | 'other';

/** What the values of a map (or the items of a list) are. */
const MEMBER: Partial<Record<Kind, Kind>> = {
  'schema-map': 'schema',
  'schema-list': 'schema',
  'response-map': 'response',
  'parameter-map': 'parameter',
  'parameter-list': 'parameter',
  'header-map': 'header',
  'example-map': 'example',
  'request-body-map': 'request-body',
  'link-map': 'link',
  'callback-map': 'callback',
  // A Callback object maps runtime expressions to path items.
  callback: 'path-item',
  'path-item-map': 'path-item',
  'media-type-map': 'media-type',
  'encoding-map': 'encoding',
  'security-scheme-map': 'security-scheme',
};

/** Maps whose `x-` keys are extensions, not members. */
const EXTENDED_MAPS: ReadonlySet<Kind> = new Set(['response-map', 'path-item-map', 'callback']);

const OPERATION_KEYS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace', 'query'];

const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_ONES = [
  'not',
  'additionalProperties',
  'additionalItems',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
  'items',
];

const PARAMETER_LIKE: Readonly<Record<string, Kind>> = {
  schema: 'schema',
  content: 'media-type-map',
  examples: 'example-map',
};

/** The kind of each key of an object of a kind; keys not listed are `other`. */
const FIELDS: Partial<Record<Kind, Readonly<Record<string, Kind>>>> = {
  root: { paths: 'path-item-map', webhooks: 'path-item-map', components: 'components' },
  components: {
    schemas: 'schema-map',
    responses: 'response-map',
    parameters: 'parameter-map',
    examples: 'example-map',
    requestBodies: 'request-body-map',
    headers: 'header-map',
    securitySchemes: 'security-scheme-map',
    links: 'link-map',
    callbacks: 'callback-map',
    pathItems: 'path-item-map',
    mediaTypes: 'media-type-map',
  },
  'path-item': {
    ...Object.fromEntries(OPERATION_KEYS.map((key) => [key, 'operation' as const])),
    parameters: 'parameter-list',
  },
  operation: {
    parameters: 'parameter-list',
    requestBody: 'request-body',
    responses: 'response-map',
    callbacks: 'callback-map',
  },
  response: { headers: 'header-map', content: 'media-type-map', links: 'link-map', schema: 'schema' },
  parameter: PARAMETER_LIKE,
  header: PARAMETER_LIKE,
  'request-body': { content: 'media-type-map' },
  'media-type': { schema: 'schema', itemSchema: 'schema', examples: 'example-map', encoding: 'encoding-map' },
  encoding: { headers: 'header-map' },
  schema: {
    ...Object.fromEntries(SCHEMA_MAPS.map((key) => [key, 'schema-map' as const])),
    ...Object.fromEntries(SCHEMA_LISTS.map((key) => [key, 'schema-list' as const])),
    ...Object.fromEntries(SCHEMA_ONES.map((key) => [key, 'schema' as const])),
  },
};

/** Swagger 2.0 keeps its reusable objects at the top of the document. */
const SWAGGER2_ROOT: Readonly<Record<string, Kind>> = {
  paths: 'path-item-map',
  definitions: 'schema-map',
  parameters: 'parameter-map',
  responses: 'response-map',
};

/** The kind of `parent[key]`, given the kind of `parent`; `value` tells a list of schemas from one. */
export function childKind(parent: Kind, key: string, value: unknown, rules: PositionRules): Kind {
  const member = MEMBER[parent];
  if (member !== undefined) return EXTENDED_MAPS.has(parent) && key.startsWith('x-') ? 'other' : member;
  const fields = parent === 'root' && rules.swagger2 ? SWAGGER2_ROOT : FIELDS[parent];
  const kind = fields !== undefined && Object.hasOwn(fields, key) ? (fields[key] as Kind) : 'other';
  // Draft 4 schemas (OpenAPI 3.0, Swagger 2.0) may give `items` a list of schemas.
  return kind === 'schema' && key === 'items' && Array.isArray(value) ? 'schema-list' : kind;
}

/** The kind of the items of a list of a kind. */
export function itemKind(parent: Kind): Kind {
  return parent === 'schema-list' || parent === 'parameter-list' ? (MEMBER[parent] as Kind) : 'other';
}

const SECTIONS_3: Partial<Record<Kind, string>> = {
  schema: 'schemas',
  response: 'responses',
  parameter: 'parameters',
  example: 'examples',
  'request-body': 'requestBodies',
  header: 'headers',
  'security-scheme': 'securitySchemes',
  link: 'links',
  callback: 'callbacks',
};

const SECTIONS_2: Partial<Record<Kind, string>> = {
  schema: 'definitions',
  response: 'responses',
  parameter: 'parameters',
};

/**
 * Where a reusable object of a kind lives (`components/schemas`, `definitions` in Swagger 2.0), or
 * undefined where the version has no place for it (a path item, an operation): it is then copied.
 */
export function componentSection(kind: Kind, rules: PositionRules): string[] | undefined {
  if (rules.swagger2) {
    const section = SECTIONS_2[kind];
    return section === undefined ? undefined : [section];
  }
  const section = SECTIONS_3[kind];
  return section === undefined ? undefined : ['components', section];
}
