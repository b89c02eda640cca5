// A mapping found by name, in constant time: jobs look their mapping up on every run, and a fleet
// configures thousands. The list changes in place at run time (a branches mapping's derived ones,
// src/versions/derived-mappings.ts), so an index is only trusted when the mapping found there still
// has the name; anything else reads the list again.
interface Named {
  readonly name: string;
}

const indexes = new WeakMap<readonly Named[], Map<string, number>>();

/** The first mapping of `mappings` named `name`, as a search from the start finds it. */
export function mappingByName<Mapping extends Named>(
  mappings: readonly Mapping[],
  name: string,
): Mapping | undefined {
  const at = indexes.get(mappings)?.get(name);
  const found = at === undefined ? undefined : mappings[at];
  if (found?.name === name) return found;
  const index = new Map<string, number>();
  mappings.forEach((item, i) => {
    if (!index.has(item.name)) index.set(item.name, i);
  });
  indexes.set(mappings, index);
  const again = index.get(name);
  return again === undefined ? undefined : mappings[again];
}
