// The spaces of a branches mapping: its collection (created when missing), the custom fields it
// fills (created when missing, the marker field included), and one space per branch, found in the
// state, found again by its marker, or created with its fields and moved into the collection. A
// space docsync made keeps the title and custom field values the mapping gives it: renamed by hand,
// it is renamed back; when the mapping's values change, they are set again.
import { ApiError } from '../api/api-error.js';
import type { Space } from '../api/schemas/space-schema.js';
import { collect } from './collect.js';
import { plannedId } from './version-calls.js';
import { missingTarget, orgOf, type VersionDeps } from './version-service.js';
import type { VersionState } from './version-state.js';
import { MARKER_FIELD, type VersionTarget } from './version-targets.js';

/** The collection's id, undefined when the mapping names none. Its listing proves the organization. */
export async function ensureCollection(deps: VersionDeps, state: VersionState): Promise<string | undefined> {
  const { api, mapping, signal } = deps;
  const wanted = mapping.spaces.collection;
  if (wanted === undefined) return undefined;
  const org = orgOf(mapping);
  const collections = await collect(api.collections.listAll(org, { signal })).catch((error: unknown) => {
    throw missingTarget(error, `organization ${org}`);
  });
  const found =
    collections.find((collection) => collection.id === state.collection) ??
    collections.find((collection) => collection.id === wanted || collection.title === wanted);
  if (found !== undefined) return found.id;
  const made = await deps.calls.write(
    { action: 'create collection', reason: `collection ${wanted} is missing` },
    () => api.collections.create(org, { title: wanted }, { signal }),
    { id: plannedId('collection') },
  );
  return made.id;
}

/** Creates the custom fields the mapping fills that the organization lacks (as text fields). */
export async function ensureCustomFields(deps: VersionDeps): Promise<void> {
  const { api, mapping, signal } = deps;
  const org = orgOf(mapping);
  const fields = await collect(api.customFields.listAll(org, { signal })).catch((error: unknown) => {
    throw missingTarget(error, `organization ${org}`);
  });
  const names = new Set(fields.map((field) => field.name));
  for (const name of [MARKER_FIELD, ...Object.keys(mapping.spaces.customFields)]) {
    if (names.has(name)) continue;
    await deps.calls.write(
      { action: 'create custom field', reason: `custom field ${name} is missing` },
      () =>
        api.customFields.create(
          org,
          {
            name,
            type: 'text',
            title: name === MARKER_FIELD ? 'docsync version' : name,
            ...(name === MARKER_FIELD
              ? { description: 'the mapping and branch docsync made this space for' }
              : {}),
          },
          { signal },
        ),
      undefined,
    );
  }
}

export interface SpaceCandidates {
  /** Live spaces of the collection, by id (empty without a collection). */
  inCollection: Map<string, Space>;
}

export async function readCandidates(
  deps: VersionDeps,
  collection: string | undefined,
): Promise<SpaceCandidates> {
  if (collection === undefined || collection.startsWith('(new')) return { inCollection: new Map() };
  const spaces = await collect(deps.api.collections.listSpacesAll(collection, { signal: deps.signal }));
  return {
    inCollection: new Map(spaces.filter((space) => space.deletedAt === undefined).map((s) => [s.id, s])),
  };
}

/**
 * The space of each branch, in the order of `targets`: the state's when it still lives (moved back
 * into the collection when someone moved it out), else the one carrying the branch's marker, else a
 * space with its title in the collection (adopted, never deleted), else a new one.
 */
export interface PlacedSpace {
  space: string;
  created: boolean;
  /** The custom field values the space holds as docsync set them (JSON); only for spaces it made. */
  fields?: string;
}

export async function ensureSpaces(
  deps: VersionDeps,
  targets: readonly VersionTarget[],
  state: VersionState,
  collection: string | undefined,
  candidates: SpaceCandidates,
  /** Runs once, before the first space is created or given values (the custom fields must exist). */
  beforeCreate: () => Promise<void>,
): Promise<Map<string, PlacedSpace>> {
  const result = new Map<string, PlacedSpace>();
  const claimed = new Set(Object.values(state.branches).map((entry) => entry.space));
  let markers: Map<string, { space: string; fields: string }> | undefined;
  for (const target of targets) {
    const known = state.branches[target.branch];
    const live =
      known === undefined
        ? undefined
        : await liveSpace(deps, known.space, collection, candidates, target.branch);
    if (known !== undefined && live !== undefined) {
      if (!known.created) {
        result.set(target.branch, { space: known.space, created: false });
        continue;
      }
      await keepTitle(deps, live, target);
      const fields = await keepFields(deps, known.space, known.fields, target, beforeCreate);
      result.set(target.branch, { space: known.space, created: true, fields });
      continue;
    }
    markers ??= await readMarkers(deps, candidates, claimed);
    const marked = markers.get(target.marker);
    if (marked !== undefined) {
      deps.log.info(
        { branch: target.branch, space: marked.space },
        'version space found again by its marker',
      );
      const space = candidates.inCollection.get(marked.space);
      if (space !== undefined) await keepTitle(deps, space, target);
      const fields = await keepFields(deps, marked.space, marked.fields, target, beforeCreate);
      result.set(target.branch, { space: marked.space, created: true, fields });
      continue;
    }
    const titled = [...candidates.inCollection.values()].find(
      (space) => space.title === target.title && !claimed.has(space.id),
    );
    if (titled !== undefined) {
      deps.log.info({ branch: target.branch, space: titled.id }, 'version space adopted by its title');
      result.set(target.branch, { space: titled.id, created: false });
      continue;
    }
    await beforeCreate();
    const reason = known === undefined ? 'new branch' : 'drift: its space was deleted by hand';
    result.set(target.branch, {
      space: await createSpace(deps, target, collection, reason),
      created: true,
      fields: fieldsOf(target.customFields),
    });
  }
  return result;
}

/** The values as recorded: the same values give the same text whatever their order. */
function fieldsOf(values: Readonly<Record<string, unknown>>): string {
  return JSON.stringify(Object.entries(values).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The space, when it still lives; moved back into the collection when it left it. */
async function liveSpace(
  deps: VersionDeps,
  spaceId: string,
  collection: string | undefined,
  candidates: SpaceCandidates,
  branch: string,
): Promise<Space | undefined> {
  const listed = candidates.inCollection.get(spaceId);
  if (listed !== undefined) return listed;
  let space: Space;
  try {
    space = await deps.api.spaces.get(spaceId, { signal: deps.signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
  if (space.deletedAt !== undefined) return undefined;
  if (collection !== undefined && space.parent !== collection) {
    await deps.calls.write(
      { action: 'move space', branch, reason: 'drift: moved out of the collection by hand' },
      () => deps.api.spaces.move(spaceId, collection, { signal: deps.signal }),
      space,
    );
  }
  return space;
}

/** A space docsync made carries the title the mapping gives it. */
async function keepTitle(deps: VersionDeps, space: Space, target: VersionTarget): Promise<void> {
  if (space.title === target.title) return;
  await deps.calls.write(
    {
      action: 'rename space',
      branch: target.branch,
      reason: `drift: its title is "${space.title}", the mapping gives "${target.title}"`,
    },
    () => deps.api.spaces.update(space.id, { title: target.title }, { signal: deps.signal }),
    undefined,
  );
}

/**
 * A space docsync made holds the custom field values the mapping gives it: set again when they
 * differ from those it last set (`recorded`), as when the mapping's customFields change.
 */
async function keepFields(
  deps: VersionDeps,
  spaceId: string,
  recorded: string | undefined,
  target: VersionTarget,
  ensureFields: () => Promise<void>,
): Promise<string> {
  const wanted = fieldsOf(target.customFields);
  if (recorded === wanted) return wanted;
  await ensureFields();
  await deps.calls.write(
    {
      action: 'set custom fields',
      branch: target.branch,
      reason:
        recorded === undefined
          ? 'custom field values not recorded yet'
          : "the mapping's custom field values changed",
    },
    () => deps.api.customFields.setValues(spaceId, target.customFields, { signal: deps.signal }),
    undefined,
  );
  return wanted;
}

/** Marker value to the space and its values, over the collection's spaces no branch of the state holds. */
async function readMarkers(
  deps: VersionDeps,
  candidates: SpaceCandidates,
  claimed: ReadonlySet<string>,
): Promise<Map<string, { space: string; fields: string }>> {
  const markers = new Map<string, { space: string; fields: string }>();
  for (const space of candidates.inCollection.values()) {
    if (claimed.has(space.id)) continue;
    const values = await deps.api.customFields.valuesOf(space.id, { signal: deps.signal });
    const marker = values.find((entry) => entry.customField.name === MARKER_FIELD)?.value;
    if (typeof marker === 'string')
      markers.set(marker, {
        space: space.id,
        fields: fieldsOf(Object.fromEntries(values.map((entry) => [entry.customField.name, entry.value]))),
      });
  }
  return markers;
}

async function createSpace(
  deps: VersionDeps,
  target: VersionTarget,
  collection: string | undefined,
  reason: string,
): Promise<string> {
  const { api, signal } = deps;
  const org = orgOf(deps.mapping);
  const space = await deps.calls.write(
    { action: 'create space', branch: target.branch, reason },
    () => api.spaces.create(org, { title: target.title }, { signal }),
    { id: plannedId(`space for ${target.branch}`) },
  );
  if (collection !== undefined) {
    await deps.calls.write(
      { action: 'move space', branch: target.branch, reason },
      () => api.spaces.move(space.id, collection, { signal }),
      undefined,
    );
  }
  await deps.calls.write(
    { action: 'set custom fields', branch: target.branch, reason },
    () => api.customFields.setValues(space.id, target.customFields, { signal }),
    undefined,
  );
  return space.id;
}
