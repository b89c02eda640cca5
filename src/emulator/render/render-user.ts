// User, member and organization records as the interface shows them.
import { roleIn } from '../access.js';
import type { Caller, EmulatorContext } from '../emulator-context.js';
import type { StoredMember, StoredOrg, StoredUser } from '../emulator-state.js';
import { roleAtLeast } from '../roles.js';

export function renderUser(ctx: EmulatorContext, user: StoredUser) {
  return {
    object: 'user' as const,
    id: user.id,
    displayName: user.displayName,
    email: user.email,
    photoURL: `${ctx.origin()}/_emulator/avatars/${user.id}.png`,
    urls: { location: `${ctx.origin()}/v1/users/${user.id}` },
  };
}

/** The user of an id, or a placeholder for a user removed since. */
export function renderUserById(ctx: EmulatorContext, userId: string) {
  const user = ctx.state.users[userId] ?? {
    id: userId,
    displayName: 'Former member',
    email: `${userId}@users.invalid`,
  };
  return renderUser(ctx, user);
}

export function renderMember(ctx: EmulatorContext, org: StoredOrg, member: StoredMember) {
  const spaces = Object.values(ctx.state.spaces).filter(
    (space) => space.orgId === org.id && space.deletedAt === undefined,
  ).length;
  return {
    object: 'member' as const,
    id: member.userId,
    role: member.role,
    user: renderUserById(ctx, member.userId),
    disabled: member.disabled,
    joinedAt: member.joinedAt,
    ...(member.lastSeenAt === undefined ? {} : { lastSeenAt: member.lastSeenAt }),
    sso: member.sso,
    spaces: member.role === null ? 0 : spaces,
    teams: 0,
  };
}

export function renderOrg(ctx: EmulatorContext, caller: Caller, org: StoredOrg) {
  const role = roleIn(caller, org.id);
  const origin = ctx.origin();
  return {
    object: 'organization' as const,
    id: org.id,
    title: org.title,
    createdAt: org.createdAt,
    emailDomains: org.emailDomains,
    ...(org.hostname === undefined ? {} : { hostname: org.hostname }),
    type: 'business',
    defaultRole: org.defaultRole,
    sso: org.sso,
    ai: org.ai,
    inviteLinks: org.inviteLinks,
    plan: 'free',
    // The local service has no merge rules (any reviewer merges) and no billing: no trial applies.
    mergeRules: { type: 'none' },
    trial: { status: 'notapplicable' },
    urls: {
      location: `${origin}/v1/orgs/${org.id}`,
      app: `${origin}/app/o/${org.id}`,
      ...(org.logo ? { logo: org.logo } : {}),
    },
    internal_isOnNewTrial: true,
    permissions: {
      view: role !== null,
      admin: roleAtLeast(role, 'admin'),
      ownTeam: roleAtLeast(role, 'admin'),
      createContent: roleAtLeast(role, 'create'),
      createOpenAPISpec: roleAtLeast(role, 'create'),
      viewBilling: roleAtLeast(role, 'admin'),
      listMembers: roleAtLeast(role, 'read'),
      listTeams: roleAtLeast(role, 'read'),
      listIntegrations: roleAtLeast(role, 'admin'),
      ingestConversations: roleAtLeast(role, 'admin'),
      listInstallations: roleAtLeast(role, 'admin'),
      installIntegration: roleAtLeast(role, 'admin'),
    },
  };
}
