// What the roles of the interface (the shared list, strongest first) allow: a member with a role
// may do everything a weaker role may; `null` is a guest, weaker than `read`.
import { ROLES, type Role } from '../api/schemas/service-enums.js';

export type { Role };

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** True when `role` is `needed` or stronger. */
export function roleAtLeast(role: Role | null, needed: Role): boolean {
  if (role === null) return false;
  return ROLES.indexOf(role) <= ROLES.indexOf(needed);
}
