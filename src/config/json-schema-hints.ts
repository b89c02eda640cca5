// How a config schema that zod cannot express as JSON Schema (a transform, a union that reads its
// input first to give a better message) is shown to editors: the shape people write, instead of
// "anything". Only the JSON Schema of the configuration reads these (config-json-schema.ts).
import type { z } from 'zod';

export interface JsonSchemaHint {
  /** The JSON Schema of what people write for this value. */
  schema?: Record<string, unknown>;
  /** Or: show this zod schema in its place (its input side). */
  as?: z.core.$ZodType;
  /** How a default of the parsed value is written in the file (`30000` -> `30s`). */
  formatDefault?: (value: unknown) => unknown;
}

export const jsonSchemaHints = new WeakMap<z.core.$ZodType, JsonSchemaHint>();

/** Registers `hint` for `schema` and returns the schema, for use where it is built. */
export function withJsonSchemaHint<T extends z.core.$ZodType>(schema: T, hint: JsonSchemaHint): T {
  jsonSchemaHints.set(schema, hint);
  return schema;
}
