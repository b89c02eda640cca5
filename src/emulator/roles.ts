// The role enumeration of the interface, strongest first. A member with a role may do everything a
// weaker role may; `null` is a guest, weaker than `read`.
export const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;

export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** True when `role` is `needed` or stronger. */
export function roleAtLeast(role: Role | null, needed: Role): boolean {
  if (role === null) return false;
  return ROLES.indexOf(role) <= ROLES.indexOf(needed);
}
