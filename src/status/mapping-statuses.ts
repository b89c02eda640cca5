// The mappings part of /status: each mapping with its health (src/status/health-state.ts) and the
// jobs failing in a row behind it, why it is paused, its last import (with what it read past in the
// folder: its warnings and their count), export and error, the merge verdicts of its open change
// requests, and the last link check of each of its targets. A mapping whose state cannot be read
// shows the reason; the others do not suffer from it.
import type { Config } from '../config/config-schema.js';
import type { MappingConfig } from '../config/mapping-schema.js';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';
import type { LinkCheckStore, LinkCheckSummary } from '../state/link-check-store.js';
import type { ImportOutcome, MappingState, MappingStateStore } from '../state/mapping-state.js';
import type { RepositoryHookStore } from '../state/repository-hooks.js';
import type { StoredVerdict, VerdictStore } from '../state/verdict-store.js';
import { healthOf, jobFailures } from './health-state.js';
import { errorMessage } from './status-part.js';

/** The last link check of one target: `main` (the space's live content), or a change request's id. */
export type LinkCheckStatus = { target: string; number?: number } & LinkCheckSummary;

export type MappingStatus = Awaited<ReturnType<typeof mappingStatuses>>[number];

export async function mappingStatuses(
  config: Pick<Config, 'mappings' | 'health'> & { hooks?: Pick<Config['hooks'], 'safetyPoll'> },
  store: MappingStateStore,
  verdicts?: VerdictStore,
  links?: LinkCheckStore,
  hooks?: Pick<RepositoryHookStore, 'get'>,
) {
  return Promise.all(
    config.mappings.map(async (mapping) => {
      const identity = {
        name: mapping.name,
        space: mapping.space,
        direction: mapping.direction,
        repo: redactUrlCredentials(mapping.git.repo),
        branch: mapping.git.branch,
        dir: mapping.git.dir,
      };
      try {
        const failingAfter = config.health.failingAfter;
        const [read, pushHook] = await Promise.all([
          readMapping(mapping, failingAfter, store, verdicts, links),
          pushHookOf(mapping, config.hooks?.safetyPoll, hooks),
        ]);
        return { ...identity, ...read, ...(pushHook === undefined ? {} : { pushHook }) };
      } catch (error) {
        return { ...identity, error: errorMessage(error) };
      }
    }),
  );
}

async function readMapping(
  mapping: MappingConfig,
  failingAfter: number,
  store: MappingStateStore,
  verdicts: VerdictStore | undefined,
  links: LinkCheckStore | undefined,
) {
  const [state, changeRequests, main] = await Promise.all([
    store.get(mapping.name),
    verdicts?.list(mapping.name) ?? [],
    links?.summary(mapping.space, undefined),
  ]);
  const linkChecks =
    links === undefined ? [] : await changeRequestLinkChecks(links, mapping.space, state, changeRequests);
  const failures = jobFailures(state.failures);
  return {
    state: healthOf(state.paused !== undefined, failures, failingAfter),
    failures,
    ...(state.paused === undefined ? {} : { paused: state.paused }),
    ...(state.lastImportedSha === undefined ? {} : { lastImportedSha: state.lastImportedSha }),
    ...(state.changeRequestId === undefined ? {} : { changeRequest: state.changeRequestId }),
    ...(state.lastImport === undefined ? {} : { lastImport: importStatus(state.lastImport) }),
    ...(state.lastError === undefined ? {} : { lastError: state.lastError }),
    ...(state.lastMerge === undefined ? {} : { lastMerge: state.lastMerge }),
    ...(state.lastExport === undefined ? {} : { lastExport: state.lastExport }),
    ...(state.pendingConflict === undefined ? {} : { pendingConflict: state.pendingConflict }),
    changeRequests,
    linkChecks: [...(main === undefined ? [] : [{ target: 'main', ...main }]), ...linkChecks],
  };
}

/**
 * Whether the mapping's repository sends push webhooks, so that its scheduled polls only look every
 * `hooks.safetyPoll` (src/import/plan-safety-net.ts): the last webhook's time and that interval.
 */
async function pushHookOf(
  mapping: MappingConfig,
  safetyPoll: number | undefined,
  hooks: Pick<RepositoryHookStore, 'get'> | undefined,
): Promise<{ at: string; looksEvery: number } | undefined> {
  if (hooks === undefined || safetyPoll === undefined || mapping.direction === 'space-to-git')
    return undefined;
  const { hookAt } = await hooks.get(mapping.git.repo, mapping.git.poll);
  if (hookAt === undefined) return undefined;
  return { at: new Date(hookAt).toISOString(), looksEvery: Math.max(safetyPoll, mapping.git.poll) };
}

/**
 * The last import with its warnings always listed and always counted: the state leaves both out
 * when there were none, and keeps the count only when it is more than the stored list.
 */
function importStatus(last: ImportOutcome) {
  const warnings = last.warnings ?? [];
  return { ...last, warnings, warningCount: Math.max(last.warningCount ?? 0, warnings.length) };
}

/** The change requests docsync manages now: the one it keeps and those with a verdict. */
async function changeRequestLinkChecks(
  links: LinkCheckStore,
  space: string,
  state: MappingState,
  verdicts: readonly StoredVerdict[],
): Promise<LinkCheckStatus[]> {
  const numbers = new Map<string, number | undefined>(verdicts.map((v) => [v.changeRequest, v.number]));
  const kept = state.changeRequestId;
  if (kept !== undefined && !numbers.has(kept)) {
    const imported = state.lastImport?.changeRequest;
    numbers.set(kept, imported?.id === kept ? imported.number : undefined);
  }
  const checks = await Promise.all(
    [...numbers].map(async ([id, number]) => {
      const check = await links.summary(space, id);
      return check === undefined
        ? []
        : [{ target: id, ...(number === undefined ? {} : { number }), ...check }];
    }),
  );
  return checks.flat();
}
