// poll-git: fetch a mapping's repository into docsync's mirror and decide (planGitPoll) whether
// its folder needs an import, whether the branch was rewritten (pause), or nothing. Run by a job
// scheduler per repository and interval, for its mappings one after the other (the first one's
// look answers the others: src/producers/git-poll-schedules.ts), and for one mapping at once by the
// push webhook and `docsync resume`.
import { mappingByName } from '../../src/config/mapping-by-name.js';
import type { MappingConfig } from '../../src/config/mapping-schema.js';
import { DocsyncError } from '../../src/errors/docsync-error.js';
import type { GitMirror } from '../../src/git/git-mirror.js';
import { type PolledCommit, planGitPoll } from '../../src/import/plan-git-poll.js';
import { planSafetyNet } from '../../src/import/plan-safety-net.js';
import { scheduledTickAt } from '../../src/producers/scheduled-tick.js';
import type { JobContext, JobResult } from '../../src/queue/job-definition.js';
import { rateLimitPauseMs } from '../../src/queue/retry-policy.js';
import { importStateLost, recoverImportState } from '../../src/recovery/recover-import-state.js';
import { defineJob } from '../define-job.js';
import { type ImportContentPayload, importContentKind } from '../import-content/import-content-kind.js';
import { requireMapping } from '../job-requirements.js';
import type { ServicesOf } from '../job-services.js';
import { type MappingPolled, pollEachMapping } from '../poll-each-mapping.js';
import { refreshOpenApiKind } from '../refresh-openapi/refresh-openapi-kind.js';
import { pollGitKind } from './poll-git-kind.js';

/** Commits read per poll at most; the import takes the head's folder whatever their number. */
const COMMITS_PER_POLL = 500;

const NEEDS = ['config', 'api', 'mirrorFor', 'stores', 'queues', 'now', 'dryRun'] as const;

/** What a git poll touches: the services the daemon hands it, and a unit test fakes. */
export type PollGitServices = ServicesOf<typeof NEEDS>;

// A missing branch or folder, refused credentials: the runner records the failure for the mapping
// (its kind's countsToward), so the reason is in /status, not only the log.
export const pollGitJob = defineJob(pollGitKind, NEEDS, {
  async run(ctx, payload) {
    if ('mappings' in payload) {
      // The repository is read through the first of its mappings still configured; one that left
      // the configuration since the job was queued fails alone, in pollRepository.
      const first = payload.mappings.map((name) => mappingByName(ctx.config.mappings, name)).find(Boolean);
      if (first === undefined) return (await pollRepository(ctx, undefined, payload.mappings)).result;
      return await underSafetyNet(ctx, first, payload.mappings, () =>
        pollRepository(ctx, first, payload.mappings),
      );
    }
    const mapping = requireMapping(ctx, payload.mapping);
    return await underSafetyNet(ctx, mapping, [mapping.name], async () => {
      const { poll: result } = await poll(ctx, mapping, scheduledTickAt(ctx.job.id));
      return { result, failed: 0, imported: importedTimes([result]) };
    });
  },
});

/** A poll's result, its mappings that failed, and the commit times of the imports it queued. */
interface Polled<R> {
  result: R;
  failed: number;
  imported: number[];
}

/** The commit time (ms) of each import queued; 0 for a commit without one. */
function importedTimes(results: readonly PollResult[]): number[] {
  return results.flatMap((result) =>
    result.result === 'import-queued' ? [Date.parse(String(result.committedAt ?? '')) || 0] : [],
  );
}

/**
 * A scheduled tick of a repository whose push webhooks arrive looks only every hooks.safetyPoll
 * (src/import/plan-safety-net.ts); a push's poll, `docsync resume` and a new scheduler's first run
 * look at once. A commit made after the last webhook, which a safety look finds to import, was
 * announced by none: docsync forgets the hook, and looks every git.poll again until the next one.
 * A look that failed for a mapping counts as no look: the next tick looks again.
 */
async function underSafetyNet<R extends JobResult>(
  ctx: JobContext<PollGitServices>,
  mapping: MappingConfig,
  names: readonly string[],
  pollAll: () => Promise<Polled<R>>,
): Promise<R | { result: 'hooked'; nextLookAt: string; counted: false }> {
  // No webhook can arrive without a secret (hooks.secret, hooks.gitlabToken): no read on each tick.
  const { secret, gitlabToken } = ctx.config.hooks;
  const hooksArrive = secret !== undefined || gitlabToken !== undefined;
  if (!hooksArrive || scheduledTickAt(ctx.job.id) === undefined) return (await pollAll()).result;
  const repo = mapping.git.repo;
  const every = mapping.git.poll;
  const startedAt = ctx.now().getTime();
  const plan = planSafetyNet(
    await ctx.stores.hooks.get(repo, every),
    startedAt,
    every,
    ctx.config.hooks.safetyPoll,
  );
  // Not a success: a mapping's run of failures stays in /status until a look goes through.
  if (plan.kind === 'skip')
    return { result: 'hooked', nextLookAt: new Date(plan.nextLookAt).toISOString(), counted: false };
  const polled = await pollAll();
  if (plan.kind === 'safety-look' && !ctx.dryRun && polled.failed === 0) {
    if (polled.imported.some((committedAt) => committedAt > plan.hookAt)) {
      await ctx.stores.hooks.forget(repo);
      ctx.log.warn(
        { mappings: names, hookAt: new Date(plan.hookAt).toISOString() },
        'a commit came without its push webhook: polling every git.poll again; check the webhook at the git host',
      );
    } else await ctx.stores.hooks.looked(repo, every, startedAt);
  }
  return polled.result;
}

/**
 * The mappings of one repository, one after the other, after one look at it (unless a look of this
 * tick was made): the others take its answer. A look that fails fails every mapping with its error,
 * without each one trying again. Each one's outcome is recorded as the runner records a job's
 * (jobs/poll-each-mapping.ts); a stop or a rate limit ends the job.
 */
async function pollRepository(
  ctx: JobContext<PollGitServices>,
  first: MappingConfig | undefined,
  mappings: readonly string[],
) {
  // A scheduler's first run has no tick in its id: a look begun now answers all of its mappings.
  const since = scheduledTickAt(ctx.job.id) ?? ctx.now().getTime();
  let lookFailed: unknown;
  if (first !== undefined)
    await ctx
      .mirrorFor(first.git.repo)
      .fetch(ctx.signal, { since })
      .catch((error: unknown) => {
        if (ctx.signal.aborted) throw error;
        lookFailed = error;
      });
  const totals = { mappings: mappings.length, failed: 0, imports: 0, paused: 0 };
  const results: PollResult[] = [];
  const { failed } = await pollEachMapping<PollResult>(ctx, [mappings], {
    parallel: 1,
    poll: async (name) => {
      if (lookFailed !== undefined) throw lookFailed;
      return await poll(ctx, requireMapping(ctx, name), since);
    },
    endsTheJob: (error) => ctx.signal.aborted || rateLimitPauseMs(error) !== undefined,
    polled: (_name, result) => {
      results.push(result);
      if (result.result === 'import-queued') totals.imports += 1;
      if (result.result === 'paused') totals.paused += 1;
    },
    messages: {
      permanent: 'git poll of a mapping failed',
      transient: 'git poll of a mapping failed, next tick polls again',
    },
  });
  return {
    result: { result: 'polled' as const, ...totals, failed },
    failed,
    imported: importedTimes(results),
  };
}

/**
 * OpenAPI specs kept in this mapping's repository are refreshed as soon as their file changes on
 * the branch, not only on their schedule: once per new blob.
 */
async function refreshSpecsTouched(
  ctx: JobContext<Pick<PollGitServices, 'config' | 'stores' | 'queues' | 'dryRun'>>,
  mapping: MappingConfig,
  mirror: GitMirror,
  head: string,
): Promise<void> {
  const specs = ctx.config.openapi.filter(
    (spec) =>
      typeof spec.source === 'object' && 'mapping' in spec.source && spec.source.mapping === mapping.name,
  );
  if (specs.length === 0 || ctx.dryRun) return;
  const store = ctx.stores.openapi;
  for (const spec of specs) {
    const path = (spec.source as { path: string }).path;
    const [blob, state] = await Promise.all([
      mirror.blob(head, path, ctx.signal),
      store.get(spec.org, spec.slug),
    ]);
    if (blob === undefined || state.uploaded?.validators.blob === blob.oid) continue;
    await refreshOpenApiKind.enqueue(
      ctx.queues,
      { org: spec.org, slug: spec.slug, trigger: 'git' },
      { reason: blob.oid },
    );
    ctx.log.info(
      { mapping: mapping.name, org: spec.org, slug: spec.slug, blob: blob.oid },
      'openapi refresh queued by a commit',
    );
  }
}

type PollResult = JobResult & { result: string };

/**
 * One mapping's poll. `since`: a look at the repository begun at or after that time (another
 * mapping's poll of this tick, on any worker of this process) answers for this one too; a push's
 * poll (undefined) looks anew.
 */
async function poll(
  ctx: JobContext<PollGitServices>,
  mapping: MappingConfig,
  since: number | undefined,
): Promise<MappingPolled<PollResult>> {
  const mirror = ctx.mirrorFor(mapping.git.repo);
  await mirror.fetch(ctx.signal, { since });
  const head = await mirror.resolve(mapping.git.branch, ctx.signal);
  if (head === undefined) {
    throw new DocsyncError(
      'BRANCH_NOT_FOUND',
      `branch ${mapping.git.branch} does not exist in the repository of mapping ${mapping.name}`,
    );
  }
  await refreshSpecsTouched(ctx, mapping, mirror, head);
  let state = await ctx.stores.mappings.get(mapping.name);
  // Whether this poll ends a run of failures: a batch records the success (the runner, a single poll's).
  const failing = state.failures?.[ctx.job.name] !== undefined;
  // Redis lost the state (or never had it): what the service holds of docsync's imports says which
  // commit is in the space already, so that it is not imported into a second change request.
  if (importStateLost(state) && ctx.api !== undefined)
    state = await recoverImportState({
      api: ctx.api,
      store: ctx.stores.mappings,
      mirror,
      mapping,
      head,
      state,
      signal: ctx.signal,
      dryRun: ctx.dryRun,
      log: ctx.log,
      now: ctx.now,
    });
  const last = state.lastImportedSha;
  if (last === undefined && (await mirror.treeHash(head, mapping.git.dir, ctx.signal)) === undefined) {
    throw new DocsyncError(
      'FOLDER_NOT_FOUND',
      `folder ${mapping.git.dir} does not exist on branch ${mapping.git.branch} of mapping ${mapping.name}: check git.dir`,
    );
  }
  // isAncestor answers false for a commit gone from the mirror; any other git error is retried,
  // never taken for a force-push.
  const headContainsLast = last === undefined ? undefined : await mirror.isAncestor(last, head, ctx.signal);
  let commits: Awaited<ReturnType<typeof mirror.commitsTouching>> = [];
  if (last === undefined) commits = await mirror.commitsTouching({ to: head }, mapping.git.dir, { limit: 1 });
  else if (headContainsLast)
    commits = await mirror.commitsTouching({ from: last, to: head }, mapping.git.dir, {
      limit: COMMITS_PER_POLL,
    });
  const decision = planGitPoll({
    paused: state.paused !== undefined,
    lastImportedSha: last,
    head,
    headContainsLast,
    commits,
  });
  const log = ctx.log.child({ mapping: mapping.name, head });
  switch (decision.kind) {
    case 'pause':
      if (!ctx.dryRun)
        await ctx.stores.mappings.update(mapping.name, {
          paused: { reason: 'force-push', detail: decision.detail, at: ctx.now().toISOString() },
        });
      log.warn(
        { detail: decision.detail },
        'mapping paused: branch history was rewritten; run docsync resume to go on',
      );
      return { poll: { result: 'paused', detail: decision.detail }, failing };
    case 'import': {
      const { sha, commit } = decision;
      await importContentKind.enqueue(ctx.queues, importOf(mapping, sha, commit));
      log.info({ sha, commits: decision.coalesced }, 'import queued');
      const committedAt = commit.committedAt?.toISOString();
      return {
        poll: {
          result: 'import-queued',
          sha,
          coalesced: decision.coalesced,
          ...(committedAt === undefined ? {} : { committedAt }),
        },
        failing,
      };
    }
    case 'only-docsync-commits':
      log.debug({ skipped: decision.skipped }, 'only docsync commits since the last import');
      return { poll: { result: 'skipped', skipped: decision.skipped }, failing };
    default:
      return { poll: { result: decision.kind }, failing };
  }
}

/** The import of `sha`, named after `commit`, the newest of the folder's commits by people. */
function importOf(mapping: MappingConfig, sha: string, commit: PolledCommit): ImportContentPayload {
  return {
    source: 'git',
    mapping: mapping.name,
    space: mapping.space,
    sha,
    commit: {
      sha: commit.sha,
      subject: commit.subject,
      authorName: commit.authorName,
      ...(commit.committedAt === undefined ? {} : { committedAt: commit.committedAt.toISOString() }),
    },
  };
}
