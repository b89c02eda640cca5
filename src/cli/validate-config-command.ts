// `docsync validate-config <file>`: checks a configuration without starting anything. Exit 0 and a
// summary when valid; one line per problem on stderr and exit 2 when not.
import { resolve } from 'node:path';
import { loadConfig } from '../config/load-config.js';
import { ConfigError } from '../errors/config-error.js';
import type { CliIo } from './cli-io.js';
import { EXIT } from './exit-codes.js';

export async function validateConfigCommand(file: string, io: CliIo): Promise<number> {
  try {
    const config = await loadConfig(resolve(io.cwd, file), io.env);
    io.stdout.write(
      `${file}: valid (${config.mappings.length} mapping(s), ${config.openapi.length} OpenAPI spec(s), redis ${config.redis.url !== undefined || config.redis.cluster !== undefined || config.redis.sentinel !== undefined ? 'configured' : 'embedded'})\n`,
    );
    return EXIT.ok;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    writeConfigError(error, file, io);
    return EXIT.invalid;
  }
}

export function writeConfigError(error: ConfigError, file: string, io: Pick<CliIo, 'stderr'>): void {
  const shown = new ConfigError(file, error.problems);
  io.stderr.write(`${file}: invalid configuration, ${error.problems.length} problem(s):\n`);
  for (const line of shown.lines()) io.stderr.write(`  ${line}\n`);
}
