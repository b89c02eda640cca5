// `/ui`: BullMQ's queues in bull-board, for operators who want to look at single jobs, their data,
// logs and errors. Read-only unless `http.dashboard.readOnly` is false (then jobs can be retried,
// promoted, cleaned and queues paused from it). Behind `http.token` like every other page.
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { FastifyInstance } from 'fastify';
import { QUEUE_NAMES } from '../../queue/queue-names.js';
import type { Queues } from '../../queue/queues.js';

export const DASHBOARD_PATH = '/ui';

export interface DashboardOptions {
  queues: Pick<Queues, 'get'>;
  readOnly: boolean;
}

export async function registerDashboardRoute(
  server: FastifyInstance,
  options: DashboardOptions,
): Promise<void> {
  const adapter = new FastifyAdapter();
  adapter.setBasePath(DASHBOARD_PATH);
  createBullBoard({
    queues: QUEUE_NAMES.map(
      (name) => new BullMQAdapter(options.queues.get(name), { readOnlyMode: options.readOnly }),
    ),
    serverAdapter: adapter,
    options: { uiConfig: { boardTitle: 'docsync queues' } },
  });
  await server.register(adapter.registerPlugin(), { prefix: DASHBOARD_PATH });
}
