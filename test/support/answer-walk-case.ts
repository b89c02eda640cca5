// One call of the walk of every endpoint: which endpoint (as the interface names it), the address
// and body built from the walk's world, who calls, and the status expected. An endpoint added to the
// local service is one more entry in a table of these.
import type { WalkWorld } from './answer-walk-world.js';

export type WalkCaller = 'admin' | 'reviewer' | 'commenter' | 'reader' | 'none' | 'unknown token';

export interface WalkCase {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The endpoint, with the document's parameter names: `/v1/spaces/{spaceId}`. */
  path: string;
  /** The address called below `/v1`, query string included. */
  url: (w: WalkWorld) => string;
  body?: (w: WalkWorld) => unknown;
  /** A body sent as it is, with `Content-Type: application/json` (a malformed one). */
  rawBody?: string;
  /** The admin unless told. */
  as?: WalkCaller;
  status: number;
  /** For a 400: the offending field, which its message must name. */
  field?: string;
  /** Run just before the call: to inject a fault, for instance. */
  before?: (w: WalkWorld) => Promise<void>;
  /** What the call shows, when the endpoint has several cases. */
  what?: string;
}

export const TOKENS: Record<WalkCaller, string | undefined> = {
  admin: 'admin-token',
  reviewer: 'reviewer-token',
  commenter: 'commenter-token',
  reader: 'reader-token',
  none: undefined,
  'unknown token': 'no-such-token',
};
