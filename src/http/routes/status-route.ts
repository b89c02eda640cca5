// /status: what this docsync is and does, as the README shows it: every mapping and spec with its
// last results, the queues' counts, the next scheduled runs and the recent failures. The parts are
// read at once, each on its own: one that fails or is slow shows `{ "error": ... }` in its place.
import type { FastifyInstance } from 'fastify';
import { nextRuns } from '../../daemon/next-runs.js';
import { recentFailures } from '../../daemon/recent-failures.js';
import { partOrError, readStatusPart } from '../../daemon/status-part.js';
import type { Queues } from '../../queue/queues.js';

export interface StatusDeps {
  version: string;
  startedAt: Date;
  queues: Queues;
  now?: () => Date;
  /** Every mapping with its state: active or paused and why, last import, last error. */
  mappings?: () => Promise<unknown[]>;
  /** Every OpenAPI spec with its last refresh, its version and what the last version changed. */
  openapi?: () => Promise<unknown[]>;
}

export function registerStatusRoute(server: FastifyInstance, deps: StatusDeps): void {
  const now = deps.now ?? (() => new Date());
  server.get('/status', async (request, reply) => {
    const [mappings, openapi, queues, next, failures] = await Promise.all([
      readStatusPart(async () => (await deps.mappings?.()) ?? []),
      readStatusPart(async () => (await deps.openapi?.()) ?? []),
      readStatusPart(() => deps.queues.counts()),
      readStatusPart(() => nextRuns(deps.queues)),
      readStatusPart(() => recentFailures(deps.queues)),
    ]);
    const parts = { mappings, openapi, queues, nextRuns: next, failures };
    for (const [part, result] of Object.entries(parts))
      if (!result.ok) request.log.warn({ err: result.error, part }, 'status part unavailable');
    // These three read nothing but the queues: when none answers, Redis does not, and nothing
    // else could be read either.
    if (!queues.ok && !next.ok && !failures.ok) {
      return reply
        .code(503)
        .send({ error: { code: 503, message: 'Redis does not answer: the status is unavailable' } });
    }
    return {
      version: deps.version,
      startedAt: deps.startedAt.toISOString(),
      uptimeSeconds: Math.round((now().getTime() - deps.startedAt.getTime()) / 1000),
      mappings: partOrError(mappings),
      openapi: partOrError(openapi),
      queues: partOrError(queues),
      nextRuns: partOrError(next),
      failures: partOrError(failures),
    };
  });
}
