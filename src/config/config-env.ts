// The environment a configuration is read with, for the few keys that name a variable rather than
// hold its value (a mapping's `report.*.tokenEnv`). Parsing is synchronous: parseConfig sets the
// environment for the length of one parse, so `docsync once` and tests read the variables they were
// given, not the process's. A schema parsed outside parseConfig reads the process's environment.
import type { Env } from './interpolate-env.js';

let current: Env | undefined;

/** One variable of the environment of the configuration being read. */
export function readConfigEnv(name: string): string | undefined {
  return (current ?? process.env)[name];
}

/** Runs a synchronous parse with `env` as the environment its variables are read from. */
export function withConfigEnv<T>(env: Env, parse: () => T): T {
  const previous = current;
  current = env;
  try {
    return parse();
  } finally {
    current = previous;
  }
}
