// What a poll decides for each managed change request, from one read of docsync's last link checks
// (their revisions and counts of broken links: one MGET for the space, not a read per change request) and the service's facts, read a few
// change requests at a time: its merge verdict, the upkeep it needs, and whether its revision
// needs a link check. In the order given; nothing is queued here.
import type { DocsApiClient } from '../api/docs-api-client.js';
import type { ChangeRequest } from '../api/schemas/change-request-schema.js';
import { mapBounded } from '../concurrency/map-bounded.js';
import type { MappingConfig } from '../config/mapping-schema.js';
import type { LinkCheckStore } from '../state/link-check-store.js';
import { type MergeVerdict, mergeVerdict } from './merge-verdict.js';
import { planUpkeep, type UpkeepActions } from './plan-upkeep.js';
import { readMergeFactsGiven } from './read-merge-facts.js';

const MERGE_DISABLED: MergeVerdict = { mergeable: false, reasons: ['merge disabled'] };

/** Change requests whose reviews and comments are read at once, per poll. */
const FACT_READS = 4;

export interface PolledJudgement {
  changeRequest: ChangeRequest;
  verdict: MergeVerdict;
  actions: UpkeepActions;
  /** A revision no link check has seen yet (a person's edit, a change request docsync did not import). */
  check: boolean;
}

export async function judgePolledChangeRequests(
  mapping: Pick<MappingConfig, 'space' | 'changeRequest' | 'merge' | 'links'>,
  api: DocsApiClient,
  links: LinkCheckStore,
  managed: readonly ChangeRequest[],
  signal?: AbortSignal,
): Promise<PolledJudgement[]> {
  const checksWanted = mapping.merge.noBrokenLinks || mapping.links.comment;
  // Read only where a check counts: a verdict weighs broken links only under noBrokenLinks.
  const lastChecks = checksWanted
    ? await links.checkedRevisions(
        mapping.space,
        managed.map((cr) => cr.id),
      )
    : [];
  const judged = (cr: ChangeRequest, index: number, verdict: MergeVerdict): PolledJudgement => ({
    changeRequest: cr,
    verdict,
    actions: planUpkeep(mapping, cr.outdated, verdict),
    check: checksWanted && lastChecks[index]?.revision !== cr.revision,
  });
  // Nothing to read without merging: judged at once, not through a promise per change request.
  if (!mapping.merge.enabled) return managed.map((cr, index) => judged(cr, index, MERGE_DISABLED));
  return mapBounded(managed, FACT_READS, async (cr, index) =>
    judged(
      cr,
      index,
      mergeVerdict(
        mapping.merge,
        await readMergeFactsGiven(api, lastChecks[index], mapping.space, cr, signal),
      ),
    ),
  );
}
