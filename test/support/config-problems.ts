// The problem lines of a configuration that is expected to be invalid.
import { ConfigError } from '../../src/errors/config-error.js';

export function configProblems(read: () => unknown): string[] {
  try {
    read();
  } catch (error) {
    if (error instanceof ConfigError) return error.lines();
    throw error;
  }
  throw new Error('expected the configuration to be invalid');
}
