// Sizes in config: a whole number of bytes, as the config's other sizes are written (`maxBytes:
// 10485760`), or a number with a unit (`5MiB`, `512KiB`, `1.5GB`), which reads better for limits.
import { z } from 'zod';
import { withJsonSchemaHint } from './json-schema-hints.js';

const KIB = 1024;
const MIB = KIB * 1024;
const GIB = MIB * 1024;

const UNIT_BYTES = {
  B: 1,
  KiB: KIB,
  MiB: MIB,
  GiB: GIB,
  KB: 1000,
  MB: 1000 ** 2,
  GB: 1000 ** 3,
} as const;
const SIZE = /^(\d+(?:\.\d+)?)\s*(B|KiB|MiB|GiB|KB|MB|GB)$/;

/** Bytes for `5MiB`, `512KiB`, `1.5GB`, `1024B` or `1024`; undefined when the text is not a size. */
export function parseByteSize(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const match = SIZE.exec(trimmed);
  if (!match) return undefined;
  const [, amount, unit] = match;
  return Math.round(Number(amount) * UNIT_BYTES[unit as keyof typeof UNIT_BYTES]);
}

/** A size in config, read into bytes, between `min` and `max`. */
export function byteSize(bounds: { min: number; max: number }) {
  const schema = z
    .union([z.string(), z.number()], {
      error:
        'expected a size: write a whole number of bytes, or a number with a unit, for example 512KiB or 5MiB',
    })
    .transform((input, ctx) => {
      const text = String(input);
      const bytes =
        typeof input === 'number' ? (Number.isInteger(input) ? input : undefined) : parseByteSize(input);
      if (bytes === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `"${text}" is not a size: write a whole number of bytes, or a number with a unit, for example 512KiB, 5MiB or 1GiB`,
        });
        return z.NEVER;
      }
      if (bytes < bounds.min || bytes > bounds.max) {
        ctx.addIssue({
          code: 'custom',
          message: `${text} is out of range: between ${formatBytes(bounds.min)} and ${formatBytes(bounds.max)}`,
        });
        return z.NEVER;
      }
      return bytes;
    });
  return withJsonSchemaHint(schema, {
    schema: {
      anyOf: [
        { type: 'integer', minimum: bounds.min, maximum: bounds.max },
        { type: 'string', pattern: '^\\s*(\\d+|\\d+(\\.\\d+)?\\s*(B|KiB|MiB|GiB|KB|MB|GB))\\s*$' },
      ],
      $comment: `size, ${formatBytes(bounds.min)} to ${formatBytes(bounds.max)}`,
    },
    formatDefault: (value) => (typeof value === 'number' ? formatBytes(value).replace(' ', '') : value),
  });
}

/** `60 MiB`, `1.5 KiB`, `812 B`: a size for people, in binary units, one decimal at most. */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', GIB],
    ['MiB', MIB],
    ['KiB', KIB],
  ] as const) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  }
  return `${bytes} B`;
}
