// The reconcile of a branches mapping: brings the service to what the mapping declares for the
// branches git holds, with the fewest calls. Reads first (collection, its spaces, the site's
// sections with their site spaces), writes only what differs, each with its reason; in a dry run
// it only lists the writes. The state it ends with is saved for the next run.
import {
  ensureCollection,
  ensureCustomFields,
  ensureSpaces,
  readCandidates,
} from './place-version-spaces.js';
import { publishVersions } from './publish-version-spaces.js';
import type { VersionCall } from './version-calls.js';
import type { VersionDeps } from './version-service.js';
import type { VersionEntry, VersionState, VersionStateStore } from './version-state.js';
import { defaultBranch, unmatchedPatterns, versionTargets } from './version-targets.js';

export interface ReconcileInput extends VersionDeps {
  /** The branches the repository holds now. */
  branches: readonly string[];
  store: VersionStateStore;
  dryRun: boolean;
}

export interface ReconcileOutcome {
  /** The writes made (or, in a dry run, that would be made), in order. */
  calls: VersionCall[];
  /** Those that restored what was changed by hand. */
  drift: VersionCall[];
  /** Branches with a live space. */
  versions: number;
  /** Patterns of git.branches that match no branch. */
  unmatched: string[];
  state: VersionState;
}

export async function reconcileVersions(input: ReconcileInput): Promise<ReconcileOutcome> {
  const { mapping, log, calls } = input;
  const state = await input.store.get(mapping.name);
  const targets = versionTargets(mapping, input.branches);
  const unmatched = unmatchedPatterns(mapping, input.branches);
  for (const pattern of unmatched) log.warn({ pattern }, 'branch pattern matches no branch');

  const collection = await ensureCollection(input, state);
  const candidates = await readCandidates(input, collection);
  let fieldsReady: Promise<void> | undefined;
  const spaces = await ensureSpaces(input, targets, state, collection, candidates, () => {
    fieldsReady ??= ensureCustomFields(input);
    return fieldsReady;
  });

  const retired = Object.entries(state.branches).filter(([branch]) => !spaces.has(branch));
  const unpublish = [
    ...(mapping.onBranchDelete === 'keep' ? [] : retired).map(([branch, entry]) => ({
      branch,
      space: entry.space,
      reason: 'branch deleted',
    })),
    // A branch whose space was deleted by hand and made again: the old one's site space goes.
    ...Object.entries(state.branches).flatMap(([branch, entry]) =>
      spaces.has(branch) && spaces.get(branch)?.space !== entry.space
        ? [{ branch, space: entry.space, reason: 'drift: its space was deleted by hand' }]
        : [],
    ),
  ];
  const published = await publishVersions(
    input,
    targets.map((target) => ({
      branch: target.branch,
      space: (spaces.get(target.branch) as { space: string }).space,
      path: target.path,
    })),
    unpublish,
    {
      site: state.site,
      section: state.section,
      siteSpaces: Object.fromEntries(
        Object.entries(state.branches).flatMap(([branch, entry]) =>
          entry.siteSpace === undefined ? [] : [[branch, entry.siteSpace]],
        ),
      ),
    },
    defaultBranch(mapping),
  );

  const branches: Record<string, VersionEntry> = {};
  for (const [branch, found] of spaces) {
    const siteSpace = published?.siteSpaces[branch];
    branches[branch] = { ...found, ...(siteSpace === undefined ? {} : { siteSpace }) };
  }
  for (const [branch, entry] of retired) {
    const kept = await retire(input, branch, entry);
    if (kept !== undefined) branches[branch] = kept;
  }
  const next: VersionState = {
    ...(collection === undefined ? {} : { collection }),
    ...(published === undefined ? {} : { site: published.site, section: published.section }),
    branches,
  };
  if (!input.dryRun) await input.store.set(mapping.name, next);
  return { calls: calls.made, drift: calls.drift, versions: targets.length, unmatched, state: next };
}

/** What becomes of a deleted branch's space (already off the site unless keep): its next entry, if any. */
async function retire(
  input: ReconcileInput,
  branch: string,
  entry: VersionEntry,
): Promise<VersionEntry | undefined> {
  const { mapping, api, signal } = input;
  const { siteSpace: _gone, ...offSite } = entry;
  if (mapping.onBranchDelete === 'keep') return entry;
  if (mapping.onBranchDelete === 'delete' && entry.created) {
    await input.calls.write(
      { action: 'delete space', branch, reason: 'branch deleted' },
      () => api.spaces.delete(entry.space, { signal }),
      undefined,
    );
    return undefined;
  }
  if (mapping.onBranchDelete === 'delete')
    input.log.warn({ branch, space: entry.space }, 'version space not deleted: docsync did not create it');
  if (entry.archived !== true) input.log.info({ branch, space: entry.space }, 'version space archived');
  return { ...offSite, archived: true };
}
