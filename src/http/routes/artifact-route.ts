// GET /artifacts/:id: the documentation service fetches a bundle docsync published. The address is
// the credential (signature and expiry in its query), so the route is public, answers every refusal
// alike, and keeps the query out of every log line.
import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { isArtifactId } from '../../artifacts/artifact-signature.js';
import type { ArtifactStore } from '../../artifacts/artifact-store.js';
import type { Logger } from '../../log/create-logger.js';
import { errorBody, useErrorBody } from '../error-body.js';

export interface ArtifactRouteDeps {
  store: Pick<ArtifactStore, 'open'>;
  log: Logger;
}

// A repeated parameter (`?expires=1&expires=2`) fails here and is refused like any bad address.
const artifactQuery = z.object({
  expires: z.string().optional(),
  signature: z.string().optional(),
});

const REFUSED = errorBody(
  403,
  'this artifact address is not valid: it is unknown, altered or expired; ask docsync for a new one',
);

export function registerArtifactRoute(server: FastifyInstance, deps: ArtifactRouteDeps): void {
  // The server's logger already names the component (`http`): the route adds which route it is.
  const log = deps.log.child({ route: 'artifacts' });
  server.register(async (scope) => {
    useErrorBody(scope, log);
    // Fastify's own request lines carry `req.url`: in this scope they show the path without its query.
    scope.setChildLoggerFactory((logger, bindings, options) =>
      logger.child(bindings, {
        ...options,
        serializers: { ...options.serializers, req: serializeRequestWithoutQuery },
      }),
    );
    scope.get<{ Params: { id: string } }>('/artifacts/:id', async (request, reply) => {
      const { id } = request.params;
      const query = artifactQuery.safeParse(request.query);
      const opening = query.success
        ? await deps.store.open(id, query.data.expires, query.data.signature)
        : ({ ok: false, reason: 'malformed' } as const);
      if (!opening.ok) {
        log.info(
          { ...(isArtifactId(id) ? { artifact: id } : {}), reason: opening.reason, reqId: request.id },
          'artifact refused',
        );
        return reply.code(403).header('cache-control', 'no-store').send(REFUSED);
      }
      log.debug({ artifact: id, bytes: opening.size, reqId: request.id }, 'artifact served');
      return (
        reply
          .code(200)
          .header('content-type', 'application/zip')
          .header('content-length', opening.size)
          .header('content-disposition', `attachment; filename="${opening.id}.zip"`)
          .header('cache-control', 'no-store')
          .header('x-content-type-options', 'nosniff')
          // Never more than the length announced, should the file change after it was measured.
          .send(
            opening.size === 0 ? Buffer.alloc(0) : createReadStream(opening.path, { end: opening.size - 1 }),
          )
      );
    });
  });
}

interface LoggedRequest {
  id?: unknown;
  method?: unknown;
  url?: unknown;
}

function serializeRequestWithoutQuery(request: LoggedRequest): Record<string, unknown> {
  const url = typeof request.url === 'string' ? request.url.split('?', 1)[0] : undefined;
  return { id: request.id, method: request.method, url };
}
