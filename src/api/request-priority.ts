// Which requests go first when the shared budget of the service runs low. A request that changes
// something (an upload, a merge, a comment) is high; a read is low, unless the work it is made for
// goes first: a job that says so (jobs/define-job.ts: an import, an update, a merge, an export) runs
// with its reads high too, so that scheduled polls and link checks never hold it up. Low requests
// may take a token only while the bucket holds more than a reserve (a quarter of it), which is left
// to the high ones.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { HttpMethod } from './http-transport.js';

export type RequestPriority = 'high' | 'low';

/** The part of the budget only high-priority requests may take. */
export const LOW_PRIORITY_RESERVE = 0.25;

const workPriority = new AsyncLocalStorage<RequestPriority>();

/** Runs `work` with every request it makes, reads included, at `priority` or higher. */
export function withRequestPriority<T>(priority: RequestPriority, work: () => T): T {
  return workPriority.run(priority, work);
}

export function requestPriority(method: HttpMethod): RequestPriority {
  if (method !== 'GET' && method !== 'HEAD') return 'high';
  return workPriority.getStore() ?? 'low';
}

/**
 * Tokens the bucket must still hold after a request of `priority` takes one. Whole tokens, so that
 * a budget of 1 to 3 requests has no reserve (a low request could otherwise never go).
 */
export function reservedTokens(priority: RequestPriority, requests: number): number {
  return priority === 'high' ? 0 : Math.floor(requests * LOW_PRIORITY_RESERVE);
}
