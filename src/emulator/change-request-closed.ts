// A merged or archived change request is closed: its content can no longer be edited, updated from
// the main content, reviewed or merged, and it is never outdated.
import { badRequest } from './emulator-http-error.js';
import type { StoredChangeRequest } from './emulator-state.js';

export function isClosed(cr: StoredChangeRequest): boolean {
  return cr.status === 'merged' || cr.status === 'archived';
}

/** Refuses a closed change request; `verb` says what the request would have done (`merged`). */
export function requireNotClosed(cr: StoredChangeRequest, verb: string): void {
  if (isClosed(cr)) throw badRequest(`change request ${cr.number} is ${cr.status}: it cannot be ${verb}`);
}
