// The caller, and the organization a route's path names (`:o`), once the caller holds `needed` there.
import type { FastifyRequest } from 'fastify';
import { callerOf, requireOrg } from './access.js';
import type { Caller } from './emulator-context.js';
import type { StoredOrg } from './emulator-state.js';
import type { Role } from './roles.js';

export function requireNamedOrg(
  request: FastifyRequest<{ Params: { o: string } }>,
  needed: Role,
  action: string,
): { caller: Caller; org: StoredOrg } {
  const caller = callerOf(request);
  return { caller, org: requireOrg(caller, request.params.o, needed, action) };
}
