// The /status answer, read once for the JSON route and the status page alike: every part at once,
// each on its own, so that one that fails or is slow shows `{ "error": ... }` in its place, and the
// health summary of the mappings and specs read (src/status/health-summary.ts).

import type { Queues } from '../queue/queues.js';
import { healthSummary } from './health-summary.js';
import type { MappingStatus } from './mapping-statuses.js';
import { nextRuns } from './next-runs.js';
import type { SpecStatus } from './openapi-statuses.js';
import { recentFailures } from './recent-failures.js';
import type { ServiceBudgetStatus } from './service-budget-status.js';
import { partOrError, readStatusPart } from './status-part.js';

export interface StatusDeps {
  version: string;
  startedAt: Date;
  queues: Queues;
  now?: () => Date;
  /** Every mapping with its health and why, last import, last error. */
  mappings?: () => Promise<readonly MappingStatus[]>;
  /** Every OpenAPI spec with its health, last refresh, version and what the last version changed. */
  openapi?: () => Promise<readonly SpecStatus[]>;
  /** What docsync did lately, newest first (the event log). */
  events?: () => Promise<unknown[]>;
  /** Whether Redis takes writes: a full disk (MISCONF) makes docsync failing, though reads work. */
  redisWrites?: () => Promise<'ok' | 'refused'>;
  /** The budget of service.rateLimit every process shares, when it is set. */
  serviceBudget?: (() => Promise<ServiceBudgetStatus>) | undefined;
}

export type StatusReading =
  | { available: true; body: Record<string, unknown> }
  | { available: false; message: string };

/** Where a part that cannot be read is reported: the request's logger. */
export interface StatusLog {
  warn(fields: object, message: string): void;
}

export async function readStatus(deps: StatusDeps, log: StatusLog): Promise<StatusReading> {
  const now = deps.now ?? (() => new Date());
  const { serviceBudget } = deps;
  const [mappings, openapi, queues, next, failures, events, writes, budget] = await Promise.all([
    readStatusPart(async () => (await deps.mappings?.()) ?? []),
    readStatusPart(async () => (await deps.openapi?.()) ?? []),
    readStatusPart(() => deps.queues.counts()),
    readStatusPart(() => nextRuns(deps.queues)),
    readStatusPart(() => recentFailures(deps.queues)),
    readStatusPart(async () => (await deps.events?.()) ?? []),
    readStatusPart(async () => (await deps.redisWrites?.()) ?? 'ok'),
    readStatusPart(async () => await serviceBudget?.()),
  ]);
  const parts = {
    mappings,
    openapi,
    queues,
    nextRuns: next,
    failures,
    events,
    ...(serviceBudget === undefined ? {} : { serviceBudget: budget }),
  };
  for (const [part, result] of Object.entries(parts))
    if (!result.ok) log.warn({ err: result.error, part }, 'status part unavailable');
  // These three read nothing but the queues: when none answers, Redis does not, and nothing
  // else could be read either.
  if (!queues.ok && !next.ok && !failures.ok)
    return { available: false, message: 'Redis does not answer: the status is unavailable' };
  return {
    available: true,
    body: {
      version: deps.version,
      startedAt: deps.startedAt.toISOString(),
      uptimeSeconds: Math.round((now().getTime() - deps.startedAt.getTime()) / 1000),
      // A Redis that does not answer at all shows in the parts that could not be read.
      summary: healthSummary(partOrError(mappings), partOrError(openapi), writes.ok ? writes.value : 'ok'),
      mappings: partOrError(mappings),
      openapi: partOrError(openapi),
      queues: partOrError(queues),
      nextRuns: partOrError(next),
      failures: partOrError(failures),
      events: partOrError(events),
      ...(serviceBudget === undefined ? {} : { serviceBudget: partOrError(budget) }),
    },
  };
}
