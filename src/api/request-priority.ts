// Which requests go first when the shared budget of the service runs low. The API layer decides by
// method, so that no job has to say: a request that changes something (a push's import, a merge,
// an upload, a comment) is high; a read (a scheduled link check, a poll for changes or change
// requests) is low. Low requests may take a token only while the bucket holds more than a reserve
// (a quarter of it), which is left to the high ones.
import type { HttpMethod } from './http-transport.js';

export type RequestPriority = 'high' | 'low';

/** The part of the budget only high-priority requests may take. */
export const LOW_PRIORITY_RESERVE = 0.25;

export function requestPriority(method: HttpMethod): RequestPriority {
  return method === 'GET' || method === 'HEAD' ? 'low' : 'high';
}

/**
 * Tokens the bucket must still hold after a request of `priority` takes one. Whole tokens, so that
 * a budget of 1 to 3 requests has no reserve (a low request could otherwise never go).
 */
export function reservedTokens(priority: RequestPriority, requests: number): number {
  return priority === 'high' ? 0 : Math.floor(requests * LOW_PRIORITY_RESERVE);
}
