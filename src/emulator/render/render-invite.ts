// Invite links as the public document shows them: to the organization with a `role`, or to a space
// or a collection with a `level` and the record. `redundant`: the caller already holds what the
// invite gives (their role in the organization is at least the invite's).
import { roleIn } from '../access.js';
import type { Caller, EmulatorContext } from '../emulator-context.js';
import type { StoredSpace } from '../emulator-state.js';
import { type Role, roleAtLeast } from '../roles.js';
import type { StoredCollection, StoredInvite } from '../stored-org-resources.js';
import { renderCollection } from './render-collection.js';
import { renderSpace } from './render-space.js';

/** What an invite points to, resolved by the route (it must still exist). */
export type InviteTarget =
  | { kind: 'organization' }
  | { kind: 'space'; space: StoredSpace }
  | { kind: 'collection'; collection: StoredCollection };

function isRedundant(caller: Caller, orgId: string, given: Role | null): boolean {
  const role = roleIn(caller, orgId);
  if (role === null) return false;
  return given === null || roleAtLeast(role, given);
}

export function renderInvite(
  ctx: EmulatorContext,
  caller: Caller,
  invite: StoredInvite,
  target: InviteTarget,
) {
  const base = { object: 'invite' as const, id: invite.id };
  if (invite.kind === 'organization') {
    return { ...base, role: invite.role, redundant: isRedundant(caller, invite.orgId, invite.role) };
  }
  const redundant = isRedundant(caller, invite.orgId, invite.level);
  if (target.kind === 'space') {
    return { ...base, level: invite.level, redundant, space: renderSpace(ctx, caller, target.space) };
  }
  if (target.kind === 'collection') {
    return {
      ...base,
      level: invite.level,
      redundant,
      collection: renderCollection(ctx, caller, target.collection),
    };
  }
  throw new Error(`invite ${invite.id} of kind ${invite.kind} resolved to an organization`);
}
