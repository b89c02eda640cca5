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

/** Who is calling: resolved from the bearer token on every `/v1` request. */
export interface Caller {
  user: StoredUser;
  org: StoredOrg;
  member: StoredMember;
}
