// docsync's own service client pointed at a test emulator, as `createDocsApiClient` builds it from
// the configuration, with backoff that records instead of waiting and every attempt kept, so tests
// can assert how the client talked to the service. Closed after the test that made it, or after the
// file when made outside a test.
import { createDocsApiClient, type DocsApiClientExtras } from '../../src/api/create-docs-api-client.js';
import type { DocsApiClient } from '../../src/api/docs-api-client.js';
import type { ApiAttemptEvent } from '../../src/api/http-transport.js';
import { closeAfter } from './close-after.js';
import { callApi, type TestEmulator } from './start-test-emulator.js';

export interface TestApiClient {
  client: DocsApiClient;
  /** Every wait the transport asked for before retrying, in order. */
  sleeps: number[];
  /** Every attempt, with the status it got (0 when no answer came). */
  attempts: ApiAttemptEvent[];
}

export interface TestApiClientOptions {
  /** Deadline of one attempt; generous by default, the emulator answers in milliseconds. */
  timeoutMs?: number;
  extras?: DocsApiClientExtras;
}

export function testApiClient(
  test: TestEmulator,
  token: string = test.tokens.admin,
  options: TestApiClientOptions = {},
): TestApiClient {
  const sleeps: number[] = [];
  const attempts: ApiAttemptEvent[] = [];
  const client = createDocsApiClient(
    { baseUrl: test.baseUrl, token, timeout: options.timeoutMs ?? 10_000 },
    {
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      onAttempt: (event) => attempts.push(event),
      // No jitter: the backoff of attempt n is exactly baseDelayMs * 2^(n-1).
      random: () => 0,
      ...options.extras,
    },
  );
  closeAfter(() => client.close());
  return { client, sleeps, attempts };
}

// The emulator's control routes (`/_emulator/...`), called over HTTP as a user of `docsync emulator`
// would call them.

export async function setFaults(test: TestEmulator, config: Record<string, unknown>): Promise<void> {
  const answer = await callApi(`${test.origin}/_emulator/faults`, test.tokens.admin, 'PUT', config);
  if (answer.status !== 200) throw new Error(`setFaults: status ${answer.status}`);
}

export async function resetRequestCounts(test: TestEmulator): Promise<void> {
  const answer = await callApi(`${test.origin}/_emulator/requests`, test.tokens.admin, 'DELETE');
  if (answer.status !== 204) throw new Error(`resetRequestCounts: status ${answer.status}`);
}

/** Requests the emulator received, by `METHOD /v1/route/:pattern`. */
export async function requestCounts(
  test: TestEmulator,
): Promise<{ total: number; counts: Record<string, number> }> {
  const answer = await callApi<{ total: number; counts: Record<string, number> }>(
    `${test.origin}/_emulator/requests`,
    test.tokens.admin,
  );
  if (answer.status !== 200) throw new Error(`requestCounts: status ${answer.status}`);
  return answer.body;
}

/** Moves the emulator's clock forward; returns its new time. */
export async function advanceClock(test: TestEmulator, advanceMs: number): Promise<string> {
  const answer = await callApi<{ now: string }>(`${test.origin}/_emulator/clock`, test.tokens.admin, 'POST', {
    advanceMs,
  });
  if (answer.status !== 200) throw new Error(`advanceClock: status ${answer.status}`);
  return answer.body.now;
}
