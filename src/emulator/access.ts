// Who may do what: the caller comes from the bearer token; each route names the weakest role it
// needs, in the organization concerned (a user may be a member of several, with a role in each).
// Unknown ids, and organizations the caller is not a member of (with what they hold), are 404; a
// role too low is 403; a space deleted more than the restore window ago is gone for good.
import type { FastifyRequest } from 'fastify';
import type { Caller, EmulatorContext, Membership } from './emulator-context.js';
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

/** The caller's membership in an organization; undefined when they are not an enabled member of it. */
export function membershipIn(caller: Caller, orgId: string): Membership | undefined {
  return caller.memberships.find((membership) => membership.org.id === orgId);
}

/** The caller's role in an organization, for `permissions`: null (a guest) when not a member. */
export function roleIn(caller: Caller, orgId: string): Role | null {
  return membershipIn(caller, orgId)?.member.role ?? null;
}

/** The caller's membership in the organization, once it holds `needed` there (404 when not a member). */
export function requireRole(caller: Caller, orgId: string, needed: Role, action: string): Membership {
  const membership = membershipIn(caller, orgId);
  if (membership === undefined) throw notFound(`organization ${orgId}`);
  const { role } = membership.member;
  if (!roleAtLeast(role, needed)) {
    throw forbidden(`${action} needs the ${needed} role or stronger; the caller has ${role ?? 'guest'}`);
  }
  return membership;
}

/** An organization the caller is a member of, once the caller holds `needed` there. */
export function requireOrg(caller: Caller, orgId: string, needed: Role, action: string): StoredOrg {
  return requireRole(caller, orgId, needed, action).org;
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
  // A space of an organization the caller is not a member of does not exist for them.
  if (space === undefined || membershipIn(caller, space.orgId) === undefined || isPurged(ctx, space))
    throw notFound(`space ${spaceId}`);
  if (space.deletedAt !== undefined && options.allowDeleted !== true)
    throw notFound(`space ${spaceId} (deleted)`);
  requireRole(caller, space.orgId, needed, action);
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
