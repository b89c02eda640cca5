// A deletion of a part of a site answers 205 once the part is removed and the site stored, or 204
// when there was no such part, as the document says.
import type { FastifyReply } from 'fastify';
import type { EmulatorContext } from './emulator-context.js';
import { savedSite } from './site-access.js';
import type { StoredSite } from './stored-sites.js';

export function answerSiteDeletion<T>(
  ctx: EmulatorContext,
  reply: FastifyReply,
  site: StoredSite,
  found: T | undefined,
  remove: (site: StoredSite, found: T) => void,
): FastifyReply {
  if (found === undefined) return reply.code(204).send();
  remove(site, found);
  savedSite(ctx, site);
  return reply.code(205).send();
}
