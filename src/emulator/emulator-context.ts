// What every route group of the local service works with: the state, the clock, the address it
// serves on, and a way to say the state changed (so `--state` is written).
import type { Logger } from '../log/create-logger.js';
import type { EmulatorState, StoredMember, StoredOrg, StoredUser } from './emulator-state.js';

export interface EmulatorLimits {
  /** Largest body fetched by an import or an OpenAPI URL source. */
  fetchMaxBytes: number;
  fetchTimeoutMs: number;
  /** Days a deleted space can be restored. */
  restoreDays: number;
}

export interface EmulatorContext {
  state: EmulatorState;
  now: () => Date;
  /** Origin of the service (`http://127.0.0.1:4010`), for the `urls` of records. */
  origin: () => string;
  /** Marks the state as changed: written to the state file soon after. */
  changed: () => void;
  limits: EmulatorLimits;
  log: Logger;
  /** Work started by a request that goes on after the answer (OpenAPI processing); awaited on close. */
  background: (task: Promise<unknown>) => void;
}

/** The caller's place in one organization. */
export interface Membership {
  org: StoredOrg;
  member: StoredMember;
}

/**
 * Who is calling: resolved from the bearer token on every `/v1` request. A user may belong to several
 * organizations, each with its own role: read the role with `roleIn` and check it with `requireOrg`,
 * `requireSpace` or `requireRole` (src/emulator/access.ts), always for the organization concerned.
 */
export interface Caller {
  user: StoredUser;
  /** Every organization the caller is an enabled member of, oldest first. */
  memberships: readonly Membership[];
}
