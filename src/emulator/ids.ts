// Opaque string ids, as the service gives them: a short prefix that says the kind, then randomness.
import { randomBytes } from 'node:crypto';

export function newId(prefix: string): string {
  return `${prefix}${randomBytes(10).toString('base64url').replace(/[-_]/g, '').slice(0, 14).padEnd(14, '0')}`;
}
