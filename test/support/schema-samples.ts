// Valid instances of a JSON schema of the service's public document, made deterministically to
// test that docsync reads everything the document allows. The samples cover every enum value, every
// `oneOf`/`anyOf` branch, optional members absent and present, nullable ones null, arrays empty and
// with items, unknown extra members where the schema allows them, and short and long strings. An
// object's samples zip its members' samples (sample k takes each member's k-th), so their count is
// that of its richest member rather than the product; `cap` bounds every list and, past `maxDepth`,
// a schema gets one smallest instance. Where `allOf` and `oneOf` combine, candidates are checked
// with ajv against the composite schema and the ones it refuses (two branches matching, an
// `additionalProperties: false` part) are dropped: what is returned is valid.
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import { documentAjv, serviceDocument, withoutNullable } from './service-document.js';

type Schema = Record<string, unknown>;
/** A schema and its JSON pointer in the root, when it has one (merged schemas have none). */
interface Located {
  schema: Schema;
  pointer: string | undefined;
}

export interface SampleOptions {
  /** The most samples of any one schema. Default 48. */
  cap?: number;
  /** Nesting past which a schema gets only its smallest instance. Default 7. */
  maxDepth?: number;
  /** What `$ref`s point into, an OpenAPI 3.0 document; the service's document by default. */
  root?: unknown;
}

/** The member added to objects that allow unknown members. */
export const EXTRA_MEMBER = 'unknownMemberOfTheFuture';

const PATTERN_SAMPLES: Record<string, string[]> = {
  '^[-a-z0-9.+_]+$': ['a', 'my-spec.v2+beta_1'],
  '^integration:[^:]+:[^:]+$': ['integration:acme:block'],
  '^[a-z0-9]+(?:-[a-z0-9]+)*$': ['a', 'long-slug-with-several-parts-2'],
  // A site's hostname, proxy origin, and colours.
  '^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$': [
    'docs.example.com',
    'a.b.example-site.io',
  ],
  '^([\\w-]+\\.)*[\\w-]+\\.[a-zA-Z]{2,}(\\/[\\w-]+)+$': [
    'example.com/docs',
    'www.company.com/developer/docs',
  ],
  '^#(?:[0-9a-fA-F]{3}){1,2}$': ['#346DDB', '#fff'],
};

const FORMAT_SAMPLES: Record<string, string[]> = {
  'date-time': ['2024-01-02T03:04:05.000Z', '2025-12-31T23:59:59+02:00'],
  uri: ['https://example.com/', `https://docs.example.com/${'section/'.repeat(30)}page?query=1#anchor`],
  email: ['a@example.com'],
  emoji: ['1f600'],
  icon: ['book'],
};

const LONG_STRING = 'A long text with spaces, ünïcödé and punctuation. ';
const ROOT_ID = 'https://docsync.invalid/sampled-document.json';

// One generator per setting for the service's document, so that its memo and ajv's compiled
// schemas serve every call of a test file.
const shared = new Map<string, SampleGenerator>();

export function schemaSamples(schema: unknown, options: SampleOptions = {}): unknown[] {
  const key = `${options.cap ?? ''}|${options.maxDepth ?? ''}`;
  let generator = options.root === undefined ? shared.get(key) : undefined;
  if (generator === undefined) {
    generator = new SampleGenerator(options);
    if (options.root === undefined) shared.set(key, generator);
  }
  return generator.samples({ schema: schema as Schema, pointer: undefined }, 0);
}

class SampleGenerator {
  private readonly cap: number;
  private readonly maxDepth: number;
  private readonly root: unknown;
  private readonly memo = new Map<unknown, Map<number, unknown[]>>();
  private ajv: Ajv2020 | undefined;

  constructor(options: SampleOptions) {
    this.cap = options.cap ?? 48;
    this.maxDepth = options.maxDepth ?? 7;
    this.root = options.root ?? serviceDocument;
  }

  samples(node: Located, depth: number): unknown[] {
    const { schema, pointer } = this.resolve(node);
    const byDepth = this.memo.get(schema) ?? new Map<number, unknown[]>();
    this.memo.set(schema, byDepth);
    const known = byDepth.get(depth);
    if (known !== undefined) return known;
    let found: unknown[];
    if (depth > this.maxDepth) {
      const smallest = this.smallest(schema, 12);
      found = smallest === undefined ? [] : [smallest.value];
    } else {
      found = this.generate({ schema, pointer }, depth);
      const composite = ['allOf', 'oneOf', 'anyOf'].some((key) => key in schema);
      if (composite && pointer !== undefined) found = found.filter(this.validator(pointer));
      found = this.dedupe(found);
    }
    byDepth.set(depth, found);
    return found;
  }

  private generate({ schema, pointer }: Located, depth: number): unknown[] {
    const nullable = schema.nullable === true ? [null] : [];
    if (Array.isArray(schema.allOf))
      return [...this.samples(this.mergeAllOf(schema, pointer), depth), ...nullable];
    const key = Array.isArray(schema.oneOf) ? 'oneOf' : Array.isArray(schema.anyOf) ? 'anyOf' : undefined;
    if (key !== undefined) {
      const { oneOf: _o, anyOf: _a, nullable: _n, ...rest } = schema;
      const own = 'properties' in rest || 'required' in rest;
      const lists = (schema[key] as unknown[]).map((branch, i) => {
        const located = { schema: branch as Schema, pointer: at(pointer, key, i) };
        return this.samples(own ? this.mergeAllOf({ allOf: [rest, branch] }, undefined) : located, depth + 1);
      });
      return [...roundRobin(lists), ...nullable];
    }
    if (Array.isArray(schema.enum)) return [...schema.enum, ...nullable];
    if ('const' in schema) return [schema.const, ...nullable];
    const types = Array.isArray(schema.type)
      ? (schema.type as string[])
      : [schema.type as string | undefined];
    return [...roundRobin(types.map((type) => this.ofType({ schema, pointer }, type, depth))), ...nullable];
  }

  private ofType(node: Located, type: string | undefined, depth: number): unknown[] {
    const { schema } = node;
    switch (type) {
      case 'string':
        return stringSamples(schema);
      case 'integer':
      case 'number':
        return numberSamples(schema, type === 'integer');
      case 'boolean':
        return [true, false];
      case 'null':
        return [null];
      case 'array':
        return this.arraySamples(node, depth);
      case 'object':
        return this.objectSamples(node, depth);
      default:
        if (schema.properties !== undefined || schema.additionalProperties !== undefined)
          return this.objectSamples(node, depth);
        // No type at all: any JSON value.
        return ['any value', 42, { nested: ['any'] }, null];
    }
  }

  private objectSamples({ schema, pointer }: Located, depth: number): unknown[] {
    const properties = Object.entries((schema.properties ?? {}) as Record<string, unknown>);
    const required = new Set((schema.required ?? []) as string[]);
    const pointers = MEMBER_POINTERS.get(schema);
    const members = properties.map(([name, value]) => ({
      name,
      required: required.has(name),
      samples: this.samples(
        { schema: value as Schema, pointer: pointers?.[name] ?? at(pointer, 'properties', name) },
        depth + 1,
      ),
    }));
    if (members.some((member) => member.required && member.samples.length === 0)) return [];
    const additional = schema.additionalProperties;
    const isMap = typeof additional === 'object' && additional !== null;
    const mapValues = isMap
      ? this.samples(
          { schema: additional as Schema, pointer: at(pointer, 'additionalProperties') },
          depth + 1,
        )
      : [];
    const rounds = Math.min(this.cap, Math.max(1, mapValues.length, ...members.map((m) => m.samples.length)));
    // Sample 0: the required members only, each with its first sample.
    const out: Record<string, unknown>[] = [
      Object.fromEntries(members.flatMap((m) => (m.required ? [[m.name, m.samples[0]]] : []))),
    ];
    for (let k = 0; k < rounds; k++) {
      const sample: Record<string, unknown> = {};
      for (const member of members) {
        if (member.samples.length > 0) sample[member.name] = member.samples[k % member.samples.length];
      }
      if (mapValues.length > 0) {
        sample[`key${k}`] = mapValues[k % mapValues.length];
        sample[`other-key-${k}`] = mapValues[(k + 1) % mapValues.length];
      }
      if (!isMap && additional !== false && k % 2 === 0)
        sample[EXTRA_MEMBER] = k % 4 === 0 ? 'unknown' : { unknown: [k] };
      out.push(sample);
    }
    return out;
  }

  private arraySamples({ schema, pointer }: Located, depth: number): unknown[] {
    const items = this.samples(
      { schema: (schema.items ?? {}) as Schema, pointer: at(pointer, 'items') },
      depth + 1,
    );
    const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
    const max = typeof schema.maxItems === 'number' ? schema.maxItems : Number.POSITIVE_INFINITY;
    if (items.length === 0) return min === 0 ? [[]] : [];
    const size = Math.max(min, Math.min(3, max));
    const out: unknown[][] = min === 0 ? [[]] : [];
    for (let start = 0; start < items.length && out.length < this.cap; start += size) {
      const chunk = items.slice(start, start + size);
      while (chunk.length < min) chunk.push(items[chunk.length % items.length]);
      out.push(chunk);
    }
    return out;
  }

  /** One instance as small as the schema allows, or undefined when none fits in `budget` levels. */
  private smallest(node: Schema, budget: number): { value: unknown } | undefined {
    if (budget < 0) return undefined;
    const { schema } = this.resolve({ schema: node, pointer: undefined });
    if (schema.nullable === true) return { value: null };
    if (Array.isArray(schema.allOf)) return this.smallest(this.mergeAllOf(schema, undefined).schema, budget);
    const branches = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
    if (Array.isArray(branches)) {
      const { oneOf: _o, anyOf: _a, ...rest } = schema;
      const own = 'properties' in rest || 'required' in rest;
      for (const branch of branches) {
        const found = this.smallest(own ? { allOf: [rest, branch] } : (branch as Schema), budget - 1);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    if (Array.isArray(schema.enum)) return { value: schema.enum[0] };
    if ('const' in schema) return { value: schema.const };
    const type = Array.isArray(schema.type)
      ? (schema.type as string[])[0]
      : (schema.type as string | undefined);
    if (type === 'array') {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      if (min === 0) return { value: [] };
      const item = this.smallest((schema.items ?? {}) as Schema, budget - 1);
      return item === undefined ? undefined : { value: Array.from({ length: min }, () => item.value) };
    }
    if (type === 'object' || schema.properties !== undefined) {
      const value: Record<string, unknown> = {};
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      for (const name of (schema.required ?? []) as string[]) {
        const member = this.smallest(properties[name] ?? {}, budget - 1);
        if (member === undefined) return undefined;
        value[name] = member.value;
      }
      return { value };
    }
    if (type === undefined) return { value: {} };
    const [first] = this.ofType({ schema, pointer: undefined }, type, Number.POSITIVE_INFINITY);
    return { value: first };
  }

  /** `allOf` as one schema: members and required lists merged; a part's `oneOf` distributed. */
  private mergeAllOf(schema: Schema, pointer: string | undefined): Located {
    const { allOf, ...own } = schema;
    const parts: Located[] = [
      { schema: own, pointer },
      ...(allOf as unknown[]).map((part, i) =>
        this.resolve({ schema: part as Schema, pointer: at(pointer, 'allOf', i) }),
      ),
    ];
    const branching = parts.findIndex((part) => Array.isArray(part.schema.oneOf ?? part.schema.anyOf));
    if (branching >= 0) {
      const { oneOf, anyOf, ...partRest } = (parts[branching] as Located).schema;
      const others = parts.filter((_, i) => i !== branching).map((part) => part.schema);
      const branches = (oneOf ?? anyOf) as unknown[];
      return {
        schema: { oneOf: branches.map((branch) => ({ allOf: [...others, partRest, branch] })) },
        pointer: undefined,
      };
    }
    const merged: Schema = {};
    const properties: Record<string, unknown> = {};
    const memberPointers: Record<string, string | undefined> = {};
    const required = new Set<string>();
    for (const part of parts) {
      const flat = Array.isArray(part.schema.allOf) ? this.mergeAllOf(part.schema, part.pointer) : part;
      for (const [key, value] of Object.entries(flat.schema)) {
        if (key === 'properties') {
          Object.assign(properties, value);
          for (const name of Object.keys(value as object))
            memberPointers[name] =
              MEMBER_POINTERS.get(flat.schema)?.[name] ?? at(flat.pointer, 'properties', name);
        } else if (key === 'required') for (const name of value as string[]) required.add(name);
        else if (key === 'additionalProperties' && merged.additionalProperties === false) continue;
        else merged[key] = value;
      }
    }
    if (Object.keys(properties).length > 0) merged.properties = properties;
    if (required.size > 0) merged.required = [...required];
    MEMBER_POINTERS.set(merged, memberPointers);
    return { schema: merged, pointer: undefined };
  }

  private resolve(node: Located): Located {
    let { schema, pointer } = node;
    for (let hops = 0; typeof schema.$ref === 'string'; hops++) {
      if (hops > 32) throw new Error(`schema-samples: $ref loop at ${schema.$ref}`);
      const target = this.nodeAt(schema.$ref.replace(/^#/, ''));
      // OpenAPI 3.0 ignores a $ref's siblings but for `nullable`, which the document sets beside one.
      pointer = schema.$ref.replace(/^#/, '');
      schema = schema.nullable === true ? { ...target, nullable: true } : target;
      if (schema !== target) pointer = undefined;
    }
    return { schema, pointer };
  }

  private nodeAt(pointer: string): Schema {
    let target: unknown = this.root;
    for (const part of pointer.replace(/^\//, '').split('/'))
      target = (target as Record<string, unknown>)[part.replaceAll('~1', '/').replaceAll('~0', '~')];
    if (target === undefined) throw new Error(`schema-samples: nothing at ${pointer}`);
    return target as Schema;
  }

  private validator(pointer: string): (value: unknown) => boolean {
    if (this.ajv === undefined) {
      this.ajv = documentAjv({ allErrors: false });
      this.ajv.addSchema(withoutNullable(this.root) as object, ROOT_ID);
    }
    const validate: ValidateFunction =
      this.ajv.getSchema(`${ROOT_ID}#${pointer}`) ?? this.ajv.compile({ $ref: `${ROOT_ID}#${pointer}` });
    return (value) => validate(value) as boolean;
  }

  private dedupe(values: unknown[]): unknown[] {
    const seen = new Set<string>();
    const out: unknown[] = [];
    for (const value of values) {
      const key = JSON.stringify(value);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(value);
      if (out.length >= this.cap) break;
    }
    return out;
  }
}

/** Where a merged schema's members come from, so that their composites can still be checked. */
const MEMBER_POINTERS = new WeakMap<Schema, Record<string, string | undefined>>();

function at(pointer: string | undefined, ...parts: (string | number)[]): string | undefined {
  if (pointer === undefined) return undefined;
  return [pointer, ...parts.map((part) => String(part).replaceAll('~', '~0').replaceAll('/', '~1'))].join(
    '/',
  );
}

/** The lists' items interleaved, so that a cap keeps the first item of every list. */
function roundRobin(lists: readonly unknown[][]): unknown[] {
  const out: unknown[] = [];
  const longest = Math.max(0, ...lists.map((list) => list.length));
  for (let i = 0; i < longest; i++) for (const list of lists) if (i < list.length) out.push(list[i]);
  return out;
}

function stringSamples(schema: Schema): string[] {
  if (typeof schema.pattern === 'string') return PATTERN_SAMPLES[schema.pattern] ?? ['a'];
  const formatted = typeof schema.format === 'string' ? FORMAT_SAMPLES[schema.format] : undefined;
  if (formatted !== undefined) return formatted;
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = Math.min(typeof schema.maxLength === 'number' ? schema.maxLength : 300, 300);
  const short = 'x'.repeat(min);
  const long = LONG_STRING.repeat(Math.ceil(max / LONG_STRING.length)).slice(0, max);
  return [short, 'Some text', long].filter((text) => text.length >= min && text.length <= max);
}

function numberSamples(schema: Schema, integer: boolean): number[] {
  const min = typeof schema.minimum === 'number' ? schema.minimum : 0;
  const max = typeof schema.maximum === 'number' ? schema.maximum : min + 100_000;
  const values = [min, Math.min(max, min + 7), max];
  if (!integer) values.push(Math.min(max, min + 2.5));
  return values;
}
