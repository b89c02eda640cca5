// A Lua script as a command of a client: defined once per client (ioredis `defineCommand`), then
// called by its hash (EVALSHA, and EVAL by itself when the server does not know the hash), so that
// a script run by every job does not travel whole each time.
import type { RedisClient } from './redis-connections.js';

/** Calls the script with `keyCount` keys first, then its arguments. */
export type ScriptCommand = (keyCount: number, ...keysAndArgs: Array<string | number>) => Promise<unknown>;

/** The script `lua` as the command `name` of `redis`, defined on first use. */
export function scriptCommand(redis: RedisClient, name: string, lua: string): ScriptCommand {
  const commands = redis as unknown as Record<string, ScriptCommand | undefined>;
  if (commands[name] === undefined) redis.defineCommand(name, { lua });
  const command = commands[name];
  if (command === undefined) throw new Error(`the Redis client did not define the command ${name}`);
  return command.bind(redis);
}
