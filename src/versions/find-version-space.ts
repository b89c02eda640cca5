// The space docsync made for one branch of a branches mapping, found from the service alone: by the
// marker field it wrote into the space, among the spaces of the mapping's collection. For
// `docsync once`, which runs without the Redis the daemon keeps the versions state in.
import type { DocsApiClient } from '../api/docs-api-client.js';
import type { BranchMappingConfig } from '../config/branch-mapping-schema.js';
import { collect } from './collect.js';
import { missingTarget, orgOf } from './version-service.js';
import { MARKER_FIELD, versionTargets } from './version-targets.js';

export type VersionSpaceLookup = { space: string } | { problem: string };

export async function findVersionSpace(
  api: DocsApiClient,
  mapping: BranchMappingConfig,
  branch: string,
  signal?: AbortSignal,
): Promise<VersionSpaceLookup> {
  const [target] = versionTargets(mapping, [branch]);
  if (target === undefined)
    return { problem: `branch ${branch} matches none of git.branches of ${mapping.name}` };
  const wanted = mapping.spaces.collection;
  if (wanted === undefined)
    return {
      problem: `${mapping.name} names no spaces.collection, where the spaces of its branches are found without docsync's Redis: give one, or run the daemon`,
    };
  const org = orgOf(mapping);
  const collections = await collect(api.collections.listAll(org, { signal })).catch((error: unknown) => {
    throw missingTarget(error, `organization ${org}`);
  });
  const collection = collections.find((one) => one.id === wanted || one.title === wanted);
  const spaces =
    collection === undefined ? [] : await collect(api.collections.listSpacesAll(collection.id, { signal }));
  for (const space of spaces) {
    if (space.deletedAt !== undefined) continue;
    const values = await api.customFields.valuesOf(space.id, { signal });
    if (values.some((entry) => entry.customField.name === MARKER_FIELD && entry.value === target.marker))
      return { space: space.id };
  }
  return {
    problem: `no space of collection ${wanted} is marked as ${target.marker}: docsync makes it at the next git poll of ${mapping.name} (or on a push webhook); run the daemon first`,
  };
}
