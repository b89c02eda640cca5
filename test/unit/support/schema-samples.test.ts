// The sample generator the client tests rely on, checked on a small document of its own: valid
// samples that cover what it promises, the same every time, and bounded.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { EXTRA_MEMBER, schemaSamples } from '../../support/schema-samples.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const root = {
  components: {
    schemas: {
      Color: { type: 'string', enum: ['red', 'green', 'blue', 'cyan', 'magenta'] },
      Shape: { oneOf: [ref('Circle'), ref('Square')] },
      Circle: {
        type: 'object',
        properties: { kind: { type: 'string', enum: ['circle'] }, radius: { type: 'number', minimum: 1 } },
        required: ['kind', 'radius'],
      },
      Square: {
        type: 'object',
        properties: { kind: { type: 'string', enum: ['square'] }, side: { type: 'integer' } },
        required: ['kind'],
        additionalProperties: false,
      },
      Thing: {
        allOf: [
          { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
          {
            type: 'object',
            properties: {
              color: ref('Color'),
              shape: ref('Shape'),
              label: { type: 'string', minLength: 2, maxLength: 40 },
              note: { type: 'string', nullable: true },
              tags: { type: 'array', items: { type: 'string' } },
              parent: ref('Thing'),
            },
            required: ['color', 'label'],
          },
        ],
      },
    },
  },
};

type Thing = {
  id: string;
  color: string;
  label: string;
  shape?: { kind: string; [key: string]: unknown };
  note?: string | null;
  tags?: string[];
  parent?: Thing;
  [key: string]: unknown;
};

const ajv = new Ajv2020({ strict: false });
ajv.addSchema(root, 'https://docsync.invalid/test-root.json');
const validThing = ajv.compile({ $ref: 'https://docsync.invalid/test-root.json#/components/schemas/Thing' });
const samples = schemaSamples(ref('Thing'), { root }) as Thing[];

describe('schema samples', () => {
  it('makes only valid instances', () => {
    expect(samples.length).toBeGreaterThan(5);
    expect(samples.filter((sample) => !validThing(sample))).toEqual([]);
  });

  it('covers every enum value and every oneOf branch', () => {
    expect(new Set(samples.map((sample) => sample.color))).toEqual(
      new Set(['red', 'green', 'blue', 'cyan', 'magenta']),
    );
    expect(new Set(samples.map((sample) => sample.shape?.kind))).toEqual(
      new Set([undefined, 'circle', 'square']),
    );
  });

  it('leaves optional members out and puts them in, nullable ones null too', () => {
    expect(samples.some((sample) => !('note' in sample))).toBe(true);
    expect(samples.some((sample) => typeof sample.note === 'string')).toBe(true);
    expect(samples.some((sample) => sample.note === null)).toBe(true);
    expect(samples.some((sample) => sample.parent !== undefined)).toBe(true);
  });

  it('makes arrays empty and with items, and strings short and long within their limits', () => {
    expect(samples.some((sample) => sample.tags?.length === 0)).toBe(true);
    expect(samples.some((sample) => (sample.tags?.length ?? 0) > 0)).toBe(true);
    const lengths = samples.map((sample) => sample.label.length);
    expect(Math.min(...lengths)).toBe(2);
    expect(Math.max(...lengths)).toBe(40);
  });

  it('adds unknown members where the schema allows them, never where it forbids them', () => {
    expect(samples.some((sample) => EXTRA_MEMBER in sample)).toBe(true);
    const squares = samples.flatMap((sample) => (sample.shape?.kind === 'square' ? [sample.shape] : []));
    expect(squares.length).toBeGreaterThan(0);
    expect(squares.filter((square) => EXTRA_MEMBER in square)).toEqual([]);
  });

  it('is deterministic and bounded: the same samples every time, at most `cap`, recursion cut', () => {
    expect(schemaSamples(ref('Thing'), { root })).toEqual(samples);
    expect(schemaSamples(ref('Thing'), { root, cap: 3 }).length).toBeLessThanOrEqual(3);
    const depth = (thing: Thing | undefined): number => (thing === undefined ? 0 : 1 + depth(thing.parent));
    // Levels 0 to maxDepth (7) are generated, the next one is the smallest instance: no parent.
    expect(Math.max(...samples.map(depth))).toBe(9);
  });
});
