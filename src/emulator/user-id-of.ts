// Ids of users are derived from their names, so that a state file matches the same tokens again.
import { createHash } from 'node:crypto';

export function userIdOf(name: string): string {
  return `usr_${createHash('sha256').update(name).digest('base64url').replace(/[-_]/g, '').slice(0, 14)}`;
}
