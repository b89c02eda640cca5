// The caller, and the site a route's path names (`:o`, `:siteId`) with its organization, once the
// caller holds `needed` there.
import type { FastifyRequest } from 'fastify';
import { callerOf } from './access.js';
import type { Caller, EmulatorContext } from './emulator-context.js';
import type { StoredOrg } from './emulator-state.js';
import type { Role } from './roles.js';
import { requireSite, type SiteParams } from './site-access.js';
import type { StoredSite } from './stored-sites.js';

export function requireNamedSite(
  ctx: EmulatorContext,
  request: FastifyRequest<{ Params: SiteParams }>,
  needed: Role,
  action: string,
): { caller: Caller; org: StoredOrg; site: StoredSite } {
  const caller = callerOf(request);
  return { caller, ...requireSite(ctx, caller, request.params, needed, action) };
}
