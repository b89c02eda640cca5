import { describe, expect, it } from 'vitest';
import {
  childPosition,
  isMisleadingKey,
  isReference,
  itemPosition,
  type Position,
} from '../../../src/openapi/openapi-positions.js';

const v3 = { swagger2: false };
const v2 = { swagger2: true };

/** The position reached from the root through `keys`. */
function at(keys: string[], rules = v3, values: Record<string, unknown> = {}): Position {
  return keys.reduce<Position>(
    (position, key) =>
      /^\d+$/.test(key) ? itemPosition(position) : childPosition(position, key, values[key] ?? {}, rules),
    'node',
  );
}

describe('positions in an OpenAPI document', () => {
  it('reads examples, defaults, enums, consts and extensions as data', () => {
    expect(at(['components', 'examples', 'stats', 'value'])).toBe('data');
    expect(at(['components', 'examples', 'stats'])).toBe('ref-or-data');
    expect(at(['components', 'schemas', 'Pet', 'example'])).toBe('data');
    expect(at(['components', 'schemas', 'Pet', 'default'])).toBe('data');
    expect(at(['components', 'schemas', 'Pet', 'enum'])).toBe('data');
    expect(at(['components', 'schemas', 'Pet', 'const'])).toBe('data');
    expect(at(['paths', '/a', 'get', 'x-codeSamples'])).toBe('data');
    expect(at(['paths', 'x-internal'])).toBe('data');
    expect(at(['components', 'links', 'next', 'parameters'])).toBe('data');
    expect(at(['components', 'schemas', 'Pet', 'examples'], v3, { examples: [] })).toBe('data');
    expect(at(['paths', '/a', 'get', 'responses', '200', 'examples'], v2)).toBe('data');
  });

  it('reads the keys of properties, headers and other maps as names, whatever they spell', () => {
    expect(at(['components', 'schemas', 'Pet', 'properties', 'example'])).toBe('node');
    expect(at(['components', 'schemas', 'Pet', 'properties', 'x-rate'])).toBe('node');
    expect(at(['components', 'schemas', 'Pet', 'properties', '$ref'])).toBe('node');
    expect(at(['paths', '/a', 'get', 'responses', '200', 'headers', 'x-request-id'])).toBe('node');
    expect(at(['paths', '/a', 'get', 'parameters', '0', 'schema'])).toBe('node');
    expect(at(['components', 'schemas', 'Pet', 'allOf', '1'])).toBe('node');
  });

  it('takes a string $ref as a reference but in data, and flags what would pass for one', () => {
    expect(isReference('node', { $ref: '#/a' })).toBe(true);
    expect(isReference('ref-or-data', { $ref: '#/components/examples/a' })).toBe(true);
    expect(isReference('data', { $ref: 'server-statistics-actions.yaml' })).toBe(false);
    expect(isReference('names', { $ref: { type: 'string' } })).toBe(false);
    expect(isMisleadingKey('names', '$ref', { type: 'string' })).toBe(true);
    expect(isMisleadingKey('names', '$id', { type: 'string' })).toBe(true);
    expect(isMisleadingKey('data', '$ref', 'x.yaml')).toBe(true);
    expect(isMisleadingKey('ref-or-data', '$ref', '#/a')).toBe(false);
    expect(isMisleadingKey('node', '$ref', '#/a')).toBe(false);
    expect(isMisleadingKey('data', 'value', {})).toBe(false);
  });
});
