// The space poll's first look at a space with no state (Redis lost it, or the mapping is new):
// finds again from git (docsync's newest export, by its trailer) and the service (docsync's change
// requests, by their marker) whether the space is at docsync's own content or moved since, and the
// commit it was last known to equal: the export base, without which every edit would be a conflict.
import type { DocsApiClient } from '../api/docs-api-client.js';
import type { MappingConfig } from '../config/mapping-schema.js';
import { DOCSYNC_TRAILER } from '../git/docsync-trailer.js';
import type { GitMirror } from '../git/git-mirror.js';
import { subjectMarker } from '../import/change-request-subject.js';
import type { Logger } from '../log/create-logger.js';
import type { MappingState, MappingStateStore } from '../state/mapping-state.js';
import { planSpaceRecovery, type SpaceRecovery } from './plan-space-recovery.js';
import { importStateLost, recoverImportState } from './recover-import-state.js';
import { recoverImports } from './recover-imports.js';

/** Commits whose message has a line like docsync's trailer, read to find docsync's newest export. */
const TRAILER_LOOKS = 20;

export interface RecoverSpaceStateInput {
  api: DocsApiClient;
  store: MappingStateStore;
  mirror: GitMirror;
  mapping: MappingConfig;
  /** The space's current revision. */
  revision: string;
  state: MappingState;
  signal: AbortSignal;
  dryRun: boolean;
  log: Logger;
  now: () => Date;
}

export async function recoverSpaceState(input: RecoverSpaceStateInput): Promise<SpaceRecovery> {
  const { mapping, mirror, signal } = input;
  // The space poll may be the first job of this process to look at the repository.
  await mirror.fetch(signal);
  const head = await mirror.resolve(mapping.git.branch, signal);
  if (head === undefined) return { kind: 'none' };
  const marker = subjectMarker(mapping.name, mapping.git.branch);
  const [imports, withTrailer] = await Promise.all([
    recoverImports({
      api: input.api,
      mirror,
      space: mapping.space,
      marker,
      head,
      dir: mapping.git.dir,
      signal,
    }),
    mirror.commitsWithTrailerLine(head, mapping.git.dir, DOCSYNC_TRAILER, { limit: TRAILER_LOOKS, signal }),
  ]);
  // docsync's newest export: the newest whose trailer paragraph names a revision, not a person's
  // commit that quotes the trailer in its message.
  const newestExport = withTrailer.find((commit) => trailerValue(commit.trailers) !== undefined);
  const exportedRevision = newestExport === undefined ? undefined : trailerValue(newestExport.trailers);
  const exported =
    newestExport === undefined || exportedRevision === undefined
      ? undefined
      : { sha: newestExport.sha, revision: exportedRevision };
  const merged = imports.merged === undefined ? undefined : { sha: imports.merged.sha };
  const mergedAfterExport =
    exported !== undefined &&
    merged !== undefined &&
    merged.sha !== exported.sha &&
    (await mirror.isAncestor(exported.sha, merged.sha, signal));
  const plan = planSpaceRecovery({
    revision: input.revision,
    exported,
    merged,
    mergedAfterExport,
    openedOn: imports.open?.changeRequest.revisionInitial,
  });
  if (plan.kind !== 'none') {
    // The change request kept open is tracked too, so that a person's merge of it is exported on
    // its commit; the git poll does the same when it runs first.
    if (importStateLost(input.state))
      await recoverImportState({ ...input, head, state: input.state, imports });
    input.log.info(
      {
        mapping: mapping.name,
        revision: input.revision,
        recovered: plan.kind,
        exportBase: plan.kind === 'moved' ? undefined : plan.base,
        exportedRevision,
        mergedChangeRequest: imports.merged?.changeRequest.number,
      },
      'space state found again from git and the service',
    );
  }
  return plan;
}

/** The revision a `Docsync-Revision` trailer names (keys compared without case, as git does). */
function trailerValue(trailers: Readonly<Record<string, readonly string[]>>): string | undefined {
  for (const [key, values] of Object.entries(trailers))
    if (key.toLowerCase() === DOCSYNC_TRAILER.toLowerCase()) return values.at(-1);
  return undefined;
}
