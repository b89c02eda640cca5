// The mapping a command line names: a configured one, or one branch of a branches mapping as
// `<mapping>@<branch>` (src/versions/derived-mappings.ts), known once docsync has made its space.
// A configured name is found in the configuration alone; a branch's needs the versions state in
// the Redis the daemon uses.
import type { Config } from '../config/config-schema.js';
import type { MappingConfig } from '../config/mapping-schema.js';
import type { RedisClient } from '../redis/redis-connections.js';
import { branchMappingOf, derivedMappings } from '../versions/derived-mappings.js';
import { RedisVersionStateStore } from '../versions/redis-version-state-store.js';

export type MappingLookup =
  | { found: MappingConfig }
  /** A branch of a branches mapping: read from Redis with `find`. */
  | { branchOf: string }
  | { problem: string };

/** What the configuration alone says about `name`; `file` names it in the problem. */
export function lookUpMapping(config: Config, name: string, file: string): MappingLookup {
  const found = config.mappings.find((mapping) => mapping.name === name);
  if (found !== undefined) return { found };
  const base = branchMappingOf(name);
  if (base !== undefined && config.branchMappings.some((mapping) => mapping.name === base))
    return { branchOf: base };
  return { problem: `no mapping named ${name} in ${file}` };
}

/** The mapping of one branch of a branches mapping, from the versions state docsync keeps in Redis. */
async function findBranchMapping(
  config: Config,
  name: string,
  branchOf: string,
  redis: RedisClient,
): Promise<Exclude<MappingLookup, { branchOf: string }>> {
  const mapping = config.branchMappings.find((entry) => entry.name === branchOf);
  if (mapping === undefined) return { problem: `no branches mapping named ${branchOf}` };
  const state = await new RedisVersionStateStore(redis, config.redis.prefix).get(branchOf);
  const derived = derivedMappings(mapping, state);
  const found = derived.find((one) => one.name === name);
  if (found !== undefined) return { found };
  const branches = derived.map((one) => one.name);
  return {
    problem: `${name}: docsync has no space for this branch of ${branchOf} (it makes one at the next git poll of a branch that matches git.branches)${branches.length === 0 ? '' : `; known: ${branches.join(', ')}`}`,
  };
}

/** The lookup made whole: a branch of a branches mapping read from Redis, any other answer as it is. */
export async function settleLookup(
  config: Config,
  name: string,
  lookup: MappingLookup,
  redis: RedisClient,
): Promise<Exclude<MappingLookup, { branchOf: string }>> {
  return 'branchOf' in lookup ? findBranchMapping(config, name, lookup.branchOf, redis) : lookup;
}
