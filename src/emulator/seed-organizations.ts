// The organizations the local service starts with: the default one, whose admin is the first token,
// and any further ones of `EmulatorOptions.organizations`, each with its own members and roles. A state
// file keeps them: the default is its oldest organization, the others are found again by title, and
// the members given are added or get their role back.
import { type EmulatorState, nextSeq, type StoredOrg } from './emulator-state.js';
import { newId } from './ids.js';
import type { Role } from './roles.js';
import { userIdOf } from './user-id-of.js';

/** A member of an organization by name: a token holder of the service calls as that user. */
export interface EmulatorOrgMemberSpec {
  name: string;
  role: Role;
}

export interface EmulatorOrganizationSpec {
  title: string;
  members: readonly EmulatorOrgMemberSpec[];
}

export const DEFAULT_ORG_TITLE = 'Local docs';

/** The default organization, made when the state has none; the first member is its admin. */
export function ensureDefaultOrganization(
  state: EmulatorState,
  members: readonly EmulatorOrgMemberSpec[],
  now: string,
): StoredOrg {
  const oldest = Object.values(state.orgs).sort((a, b) => a.seq - b.seq)[0];
  const org = oldest ?? newOrganization(state, DEFAULT_ORG_TITLE, now);
  addMembers(
    state,
    org,
    members.map((member, index) => (index === 0 ? { ...member, role: 'admin' as const } : member)),
    now,
  );
  return org;
}

/**
 * A further organization: the one of that title other than `except` (the default), or a new one. Its
 * members are added, or get the role given.
 */
export function ensureOrganization(
  state: EmulatorState,
  spec: EmulatorOrganizationSpec,
  now: string,
  except?: string,
): StoredOrg {
  const found = Object.values(state.orgs)
    .sort((a, b) => a.seq - b.seq)
    .find((org) => org.id !== except && org.title === spec.title);
  const org = found ?? newOrganization(state, spec.title, now);
  addMembers(state, org, spec.members, now);
  return org;
}

function newOrganization(state: EmulatorState, title: string, now: string): StoredOrg {
  if (title.length < 2 || title.length > 255)
    throw new Error(`organization title "${title}": give 2 to 255 characters`);
  const org: StoredOrg = {
    id: newId('org_'),
    seq: nextSeq(state),
    title,
    createdAt: now,
    emailDomains: [],
    defaultRole: 'read',
    inviteLinks: false,
    sso: false,
    ai: false,
    members: {},
  };
  state.orgs[org.id] = org;
  return org;
}

function addMembers(
  state: EmulatorState,
  org: StoredOrg,
  members: readonly EmulatorOrgMemberSpec[],
  now: string,
): void {
  for (const spec of members) {
    const userId = userIdOf(spec.name);
    state.users[userId] ??= {
      id: userId,
      displayName: spec.name,
      email: `${spec.name.toLowerCase().replace(/[^a-z0-9]+/g, '.')}@local.test`,
    };
    const existing = org.members[userId];
    if (existing === undefined) {
      org.members[userId] = {
        userId,
        role: spec.role,
        joinedAt: now,
        disabled: false,
        sso: false,
        seq: nextSeq(state),
      };
    } else {
      existing.role = spec.role;
    }
  }
}
