// The files generated from the code: the configuration's JSON Schema and its reference, and the
// command line's reference.
// `npm run docs:reference` writes them (write-references.ts); test/unit/config/generated-references.test.ts
// fails when a committed copy differs.

import { PassThrough } from 'node:stream';
import type { CliIo } from '../cli/cli-io.js';
import { cliProgram } from '../cli/cli-program.js';
import { cliReference } from '../cli/cli-reference.js';
import {
  CONFIG_JSON_SCHEMA_PATH,
  configInputJsonSchema,
  configJsonSchema,
} from '../config/config-json-schema.js';
import { configReference } from '../config/config-reference.js';

/** The program is only read, never run: nothing is written. */
const NO_IO: CliIo = { stdout: new PassThrough(), stderr: new PassThrough(), env: {}, cwd: '.' };

/** Each generated file: its path in the repository and its text. */
export function generatedReferences(): { path: string; text: string }[] {
  return [
    { path: CONFIG_JSON_SCHEMA_PATH, text: `${JSON.stringify(configJsonSchema(), null, 2)}\n` },
    { path: 'docs/reference/configuration.md', text: configReference(configInputJsonSchema()) },
    { path: 'docs/reference/cli.md', text: cliReference(cliProgram(NO_IO, {}, () => {})) },
  ];
}
