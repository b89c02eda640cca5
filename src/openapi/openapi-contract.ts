// The part of an OpenAPI document a client is bound by: its operations, their parameters, request
// bodies and responses, and the types of their schemas, with `$ref`s kept as they are. Prose,
// examples, extensions, servers and security go. A refresh keeps the contract of each upload (the
// document itself is not kept), so that the next one can tell which of its changes break clients.
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { type EventLoopSlicer, eventLoopSlicer } from './event-loop-slicer.js';
import { childPosition, itemPosition, type Position, rulesOf } from './openapi-positions.js';
import { METHODS } from './operation-fingerprints.js';

export type OpenApiContract = Record<string, unknown>;

/**
 * Keywords kept where an OpenAPI object or a schema is expected: those of the document, path items,
 * operations, parameters, request bodies, media types, responses, components and schemas that say
 * what a request may hold and what a response holds.
 */
const KEPT: ReadonlySet<string> = new Set([
  'openapi',
  'swagger',
  'paths',
  'components',
  'definitions',
  'parameters',
  'requestBodies',
  'responses',
  'pathItems',
  'schemas',
  ...METHODS,
  '$ref',
  'requestBody',
  'name',
  'in',
  'required',
  'schema',
  'content',
  'type',
  'format',
  'enum',
  'const',
  'nullable',
  'x-nullable',
  'properties',
  'items',
  'allOf',
  'oneOf',
  'anyOf',
  'additionalProperties',
  'readOnly',
  'writeOnly',
]);

/** Keywords whose data is part of the contract: the values a schema allows. */
const KEPT_DATA: ReadonlySet<string> = new Set(['enum', 'const', 'required']);

export async function openApiContract(
  document: Record<string, unknown>,
  options: { signal?: AbortSignal; slicer?: EventLoopSlicer } = {},
): Promise<OpenApiContract> {
  const slicer = options.slicer ?? eventLoopSlicer(options.signal);
  const rules = rulesOf(document);
  // Recursion per value, a pause between paths: a spec's nesting stays far under the stack's depth.
  const prune = (node: unknown, position: Position): unknown => {
    if (typeof node !== 'object' || node === null) return node;
    if (Array.isArray(node)) {
      const inner = itemPosition(position);
      return node.map((item) => prune(item, inner));
    }
    const object = node as Record<string, unknown>;
    const kept: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(object)) {
      if (position === 'node' && !KEPT.has(key)) continue;
      if (position === 'names-x' && key.startsWith('x-')) continue;
      if (position === 'data-names' || position === 'ref-or-data' || position === 'data') continue;
      const child = childPosition(position, key, value, rules);
      if (child === 'data' && !(position === 'node' && KEPT_DATA.has(key))) continue;
      kept[key] = child === 'data' ? value : prune(value, child);
    }
    return kept;
  };
  const contract: OpenApiContract = {};
  for (const [key, value] of Object.entries(document)) {
    if (!KEPT.has(key)) continue;
    const position = childPosition('node', key, value, rules);
    if (key !== 'paths' || typeof value !== 'object' || value === null || Array.isArray(value)) {
      contract[key] = prune(value, position);
      continue;
    }
    const paths: Record<string, unknown> = {};
    for (const [path, item] of Object.entries(value)) {
      if (path.startsWith('x-')) continue;
      paths[path] = prune(item, 'node');
      if (slicer.due()) await slicer.pause();
    }
    contract[key] = paths;
  }
  return contract;
}

const zip = promisify(gzip);
const unzip = promisify(gunzip);

/**
 * The contract as the state keeps it: gzipped JSON in base64, about a tenth of the JSON (200 kB
 * for GitHub's API). Compressed off the event loop: it takes about 80 ms on such a spec.
 */
export async function packContract(contract: OpenApiContract): Promise<string> {
  return (await zip(JSON.stringify(contract))).toString('base64');
}

/** A packed contract read back; undefined when it does not read back as an object. */
export async function unpackContract(packed: string): Promise<OpenApiContract | undefined> {
  try {
    const value: unknown = JSON.parse((await unzip(Buffer.from(packed, 'base64'))).toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as OpenApiContract)
      : undefined;
  } catch {
    return undefined;
  }
}
