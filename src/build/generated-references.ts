// The files generated from the code: the configuration's JSON Schema and its reference.
// `npm run docs:reference` writes them (write-references.ts); test/unit/config/generated-references.test.ts
// fails when a committed copy differs.
import { CONFIG_JSON_SCHEMA_PATH, configInputJsonSchema, configJsonSchema } from '../config/config-json-schema.js';
import { configReference } from '../config/config-reference.js';

/** Each generated file: its path in the repository and its text. */
export function generatedReferences(): { path: string; text: string }[] {
  return [
    { path: CONFIG_JSON_SCHEMA_PATH, text: `${JSON.stringify(configJsonSchema(), null, 2)}\n` },
    { path: 'docs/reference/configuration.md', text: configReference(configInputJsonSchema()) },
  ];
}
