// docsync's Lua scripts that read or write BullMQ's own keys, kept as BullMQ keeps its own: one
// `.lua` file per script in lua/, named `<name>-<keyCount>.lua` (`n` when the caller gives the
// count), read from disk once when this module loads, so that a build that lost them fails at start
// rather than at a job's first 429. The build copies lua/ beside tsc's output and the bundle
// (src/build/bundle-cli.mjs). Each runs as a command of a client, called by its hash
// (src/redis/script-command.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DocsyncError } from '../../errors/docsync-error.js';
import type { RedisClient } from '../../redis/redis-connections.js';
import { type ScriptCommand, scriptCommand } from '../../redis/script-command.js';

/** The scripts docsync runs, by name, with the count of keys each takes (`n`: the caller's). */
export const BULLMQ_SCRIPT_KEYS = {
  pauseQueueAtLeast: 1,
  spaceLockSwap: 'n',
} as const satisfies Record<string, number | 'n'>;

export type BullmqScriptName = keyof typeof BULLMQ_SCRIPT_KEYS;

export interface BullmqScript {
  name: BullmqScriptName;
  /** The file's name in lua/, as `<name>-<keyCount>.lua`. */
  file: string;
  keyCount: number | 'n';
  lua: string;
}

/** Where the scripts are: lua/ beside this module, in src/, dist/src/ and dist/bundle/ alike. */
export const BULLMQ_SCRIPT_DIR = new URL('./lua/', import.meta.url);

const FILE_NAME = /^([a-z][A-Za-z0-9]*)-(\d+|n)\.lua$/;

/** Reads every script of `dir`; a script docsync calls that is missing, or a stray file, is an error. */
export function loadBullmqScripts(dir: URL = BULLMQ_SCRIPT_DIR): ReadonlyMap<BullmqScriptName, BullmqScript> {
  const path = fileURLToPath(dir);
  let files: string[];
  try {
    files = readdirSync(path).filter((file) => file.endsWith('.lua'));
  } catch (error) {
    throw new DocsyncError('FAILED', `docsync's Lua scripts are missing: ${missingHint(path)}`, {
      cause: error,
    });
  }
  const scripts = new Map<BullmqScriptName, BullmqScript>();
  for (const file of files) {
    const match = FILE_NAME.exec(file);
    const name = match?.[1];
    const count = match?.[2];
    if (name === undefined || count === undefined || !isScriptName(name))
      throw new DocsyncError(
        'FAILED',
        `${path} holds ${file}, which is no script docsync calls: name it <name>-<keyCount>.lua after an entry of BULLMQ_SCRIPT_KEYS (src/queue/bullmq-internals/bullmq-scripts.ts), or remove it`,
      );
    const keyCount = count === 'n' ? 'n' : Number(count);
    if (keyCount !== BULLMQ_SCRIPT_KEYS[name])
      throw new DocsyncError(
        'FAILED',
        `${file} takes ${count} keys, but docsync calls ${name} with ${BULLMQ_SCRIPT_KEYS[name]}: rename the file or update BULLMQ_SCRIPT_KEYS`,
      );
    scripts.set(name, { name, file, keyCount, lua: readFileSync(`${path}/${file}`, 'utf8') });
  }
  for (const name of Object.keys(BULLMQ_SCRIPT_KEYS).filter(isScriptName))
    if (!scripts.has(name))
      throw new DocsyncError(
        'FAILED',
        `docsync's Lua script ${name}-${BULLMQ_SCRIPT_KEYS[name]}.lua is missing: ${missingHint(path)}`,
      );
  return scripts;
}

function isScriptName(name: string): name is BullmqScriptName {
  return Object.hasOwn(BULLMQ_SCRIPT_KEYS, name);
}

function missingHint(path: string): string {
  return `expected in ${path}, which the build copies from src/queue/bullmq-internals/lua/ (npm run build)`;
}

const SCRIPTS = loadBullmqScripts();

/**
 * The script `name` as a command of `redis`, defined on first use: called with its key count first,
 * then the keys, then the arguments. A script of a fixed count refuses any other.
 */
export function bullmqScript(redis: RedisClient, name: BullmqScriptName): ScriptCommand {
  const script = SCRIPTS.get(name);
  if (script === undefined) throw new DocsyncError('FAILED', `docsync has no Lua script ${name}`);
  const command = scriptCommand(redis, `docsync${name[0]?.toUpperCase()}${name.slice(1)}`, script.lua);
  const { keyCount } = script;
  if (keyCount === 'n') return command;
  return (count, ...keysAndArgs) => {
    if (count !== keyCount)
      throw new DocsyncError('FAILED', `${script.file} takes ${keyCount} keys, not ${count}`);
    return command(count, ...keysAndArgs);
  };
}
