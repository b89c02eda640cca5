// `/`: the status page for people, rendered on the server from the same reading as /status, and
// reloading itself. It shows text from the service and from git, escaped; its content security
// policy allows no script and nothing from elsewhere.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { StatusDeps } from '../../status/read-status.js';
import type { PageOptions } from '../../status/render-status-page.js';

export const PAGE_REFRESH_SECONDS = 5;

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

export interface StatusPageDeps {
  /** What the page reads, once it can be read (the queues may still be being made). */
  status: () => Promise<StatusDeps>;
  now?: () => Date;
  /** Whether the queue dashboard is served, for the page's link to it. */
  dashboard: boolean;
}

/** The page's modules (its reading, rendering and schema) load on the first request, not before the server is ready. */
export function registerStatusPageRoute(server: FastifyInstance, deps: StatusPageDeps): void {
  const now = deps.now ?? (() => new Date());
  server.get('/', async (request, reply) => {
    const options: PageOptions = {
      now: now(),
      refreshSeconds: PAGE_REFRESH_SECONDS,
      dashboard: deps.dashboard,
    };
    const [{ readStatus }, { renderStatusPage, renderUnavailablePage }, { statusAnswerSchema }, status] =
      await Promise.all([
        import('../../status/read-status.js'),
        import('../../status/render-status-page.js'),
        import('../../status/status-answer-schema.js'),
        deps.status(),
      ]);
    const reading = await readStatus(status, request.log);
    if (!reading.available) return send(reply, 503, renderUnavailablePage(reading.message, options));
    const answer = statusAnswerSchema.safeParse(reading.body);
    if (!answer.success) {
      // docsync reads its own answer here: this is a bug, shown rather than hidden.
      request.log.error({ issues: answer.error.issues }, 'status answer does not match its schema');
      return send(
        reply,
        500,
        renderUnavailablePage('The status could not be shown: see the log for the details.', options),
      );
    }
    return send(reply, 200, renderStatusPage(answer.data, options));
  });
}

function send(reply: FastifyReply, status: number, page: string): FastifyReply {
  return reply.code(status).headers(PAGE_HEADERS).send(page);
}
