// POST /hooks/git: a GitHub or GitLab push webhook that makes the matching mappings poll at once.
// The body is kept as raw bytes in this route's own scope, since the HMAC covers exactly those
// bytes; every other route keeps fastify's JSON parsing. Nothing is triggered before the
// signature or token checks out.
import type { FastifyInstance } from 'fastify';
import type { Logger } from '../../log/create-logger.js';
import { errorBody, useErrorBody } from '../error-body.js';
import { type GitProvider, type PushEvent, parsePushEvent } from '../hooks/parse-push-event.js';
import { type HookSecrets, verifyHookRequest } from '../hooks/verify-hook-request.js';

export { matchesRepository } from '../hooks/matches-repository.js';
export type { PushEvent } from '../hooks/parse-push-event.js';

export interface GitHookDeps extends HookSecrets {
  /** Triggers the polls of the mappings on the pushed repository and branch; how many it triggered. */
  onPush: (push: PushEvent) => Promise<number>;
  log: Logger;
}

/** Push payloads of large monorepos stay well under this; GitHub caps its own at 25 MB. */
export const HOOK_BODY_LIMIT = 1024 * 1024;

const PUSH_EVENTS: Readonly<Record<GitProvider, string>> = { github: 'push', gitlab: 'Push Hook' };
const FORM = 'application/x-www-form-urlencoded';

export function registerGitHookRoute(server: FastifyInstance, deps: GitHookDeps): void {
  // The server's logger already names the component (`http`): the route adds which route it is.
  const log = deps.log.child({ route: 'git-hook' });
  server.register(async (scope) => {
    useErrorBody(scope, log);
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser(
      ['application/json', FORM],
      { parseAs: 'buffer', bodyLimit: HOOK_BODY_LIMIT },
      (_request, body, done) => done(null, body),
    );
    scope.post('/hooks/git', { bodyLimit: HOOK_BODY_LIMIT }, async (request, reply) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const delivery = firstHeader(
        request.headers['x-github-delivery'] ?? request.headers['x-gitlab-event-uuid'],
      );
      const context = { reqId: request.id, ...(delivery === undefined ? {} : { delivery }) };
      const verdict = verifyHookRequest(deps, request.headers, body);
      if (!verdict.ok) {
        log.warn({ ...context, provider: verdict.provider, reason: verdict.reason }, 'git hook refused');
        return reply.code(401).send(errorBody(401, 'the webhook signature or token is missing or wrong'));
      }
      const { provider, event } = verdict;
      if (provider === 'github' && event === 'ping') {
        log.info({ ...context, provider }, 'git hook ping');
        return reply.code(200).send({ ok: true });
      }
      if (event !== PUSH_EVENTS[provider]) {
        log.debug({ ...context, provider, event: event.slice(0, 64) }, 'git hook event ignored');
        return reply.code(202).send({ triggered: 0 });
      }
      const payload = readPayload(body, request.headers['content-type']);
      if (payload === undefined) {
        return reply.code(400).send(errorBody(400, 'the push payload is not JSON'));
      }
      const parsed = parsePushEvent(provider, payload);
      if (!parsed.ok) {
        log.warn({ ...context, provider, issues: parsed.issues }, 'git push payload invalid');
        return reply
          .code(400)
          .send(errorBody(400, `the push payload is not one docsync reads: ${parsed.issues.join('; ')}`));
      }
      const { push } = parsed;
      const triggered = await deps.onPush(push);
      log.info(
        {
          ...context,
          provider,
          repository: push.repository.urls[0],
          ref: push.ref,
          after: push.after,
          deleted: push.deleted === true,
          triggered,
        },
        'git push received',
      );
      return reply.code(202).send({ triggered });
    });
  });
}

/** The JSON a hook carries: the body itself, or GitHub's form-encoded `payload=` field. */
function readPayload(body: Buffer, contentType: string | undefined): unknown {
  const text = (contentType ?? '').toLowerCase().startsWith(FORM)
    ? new URLSearchParams(body.toString('utf8')).get('payload')
    : body.toString('utf8');
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return first?.slice(0, 128);
}
