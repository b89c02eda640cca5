// The configuration as commands read it: loaded once from the file given (relative to the working
// directory), or, when it is invalid, one line per problem on stderr and no configuration.
import { resolve } from 'node:path';
import type { Config } from '../config/config-schema.js';
import { loadConfig } from '../config/load-config.js';
import { ConfigError } from '../errors/config-error.js';
import type { CliIo } from './cli-io.js';
import { writeConfigError } from './validate-config-command.js';

export async function readCliConfig(file: string, io: CliIo): Promise<Config | undefined> {
  try {
    return await loadConfig(resolve(io.cwd, file), io.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    writeConfigError(error, file, io);
    return undefined;
  }
}
