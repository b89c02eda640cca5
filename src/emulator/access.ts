// Who may do what: the caller comes from the bearer token; each route names the weakest role it
// needs. Unknown ids are 404, a role too low is 403, and a space deleted more than the restore
// window ago is gone for good.
import type { FastifyRequest } from 'fastify';
import type { Caller, EmulatorContext } from './emulator-context.js';
import { EmulatorHttpError, forbidden, notFound } from './emulator-http-error.js';
import type { StoredChangeRequest, StoredOrg, StoredSpace } from './emulator-state.js';
import { type Role, roleAtLeast } from './roles.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
  }
}

const DAY_MS = 24 * 60 * 60 * 1000;

export function callerOf(request: FastifyRequest): Caller {
  if (request.caller === undefined) throw new EmulatorHttpError(401, 'a valid bearer token is required');
  return request.caller;
}

export function requireRole(caller: Caller, needed: Role, action: string): void {
  if (!roleAtLeast(caller.member.role, needed)) {
    throw forbidden(
      `${action} needs the ${needed} role or stronger; the caller has ${caller.member.role ?? 'guest'}`,
    );
  }
}

export function requireOrg(caller: Caller, orgId: string, needed: Role, action: string): StoredOrg {
  if (caller.org.id !== orgId) throw notFound(`organization ${orgId}`);
  requireRole(caller, needed, action);
  return caller.org;
}

/** True once a deleted space is past its restore window: it is then treated as gone. */
export function isPurged(ctx: EmulatorContext, space: StoredSpace): boolean {
  return (
    space.deletedAt !== undefined &&
    ctx.now().getTime() - Date.parse(space.deletedAt) > ctx.limits.restoreDays * DAY_MS
  );
}

export function requireSpace(
  ctx: EmulatorContext,
  caller: Caller,
  spaceId: string,
  needed: Role,
  action: string,
  options: { allowDeleted?: boolean } = {},
): StoredSpace {
  const space = ctx.state.spaces[spaceId];
  if (space === undefined || space.orgId !== caller.org.id || isPurged(ctx, space))
    throw notFound(`space ${spaceId}`);
  if (space.deletedAt !== undefined && options.allowDeleted !== true)
    throw notFound(`space ${spaceId} (deleted)`);
  requireRole(caller, needed, action);
  return space;
}

/** A change request of the space, by id or by its number in the space. */
export function requireChangeRequest(
  ctx: EmulatorContext,
  space: StoredSpace,
  idOrNumber: string,
): StoredChangeRequest {
  const byId = ctx.state.changeRequests[idOrNumber];
  if (byId !== undefined && byId.spaceId === space.id) return byId;
  if (/^\d+$/.test(idOrNumber)) {
    const number = Number(idOrNumber);
    const found = Object.values(ctx.state.changeRequests).find(
      (cr) => cr.spaceId === space.id && cr.number === number,
    );
    if (found !== undefined) return found;
  }
  throw notFound(`change request ${idOrNumber}`);
}

/** The caller and the space a route's path names (`:s`), once the caller holds `needed` there. */
export function requireNamedSpace(
  ctx: EmulatorContext,
  request: FastifyRequest<{ Params: { s: string } }>,
  needed: Role,
  action: string,
  options: { allowDeleted?: boolean } = {},
): { caller: Caller; space: StoredSpace } {
  const caller = callerOf(request);
  return { caller, space: requireSpace(ctx, caller, request.params.s, needed, action, options) };
}

/** The same, and the change request the path names (`:cr`) in that space. */
export function requireNamedChangeRequest(
  ctx: EmulatorContext,
  request: FastifyRequest<{ Params: { s: string; cr: string } }>,
  needed: Role,
  action: string,
): { caller: Caller; space: StoredSpace; cr: StoredChangeRequest } {
  const found = requireNamedSpace(ctx, request, needed, action);
  return { ...found, cr: requireChangeRequest(ctx, found.space, request.params.cr) };
}
