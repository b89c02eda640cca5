// docsync's client against an emulator that fails on purpose (`PUT /_emulator/faults`, `--faults`):
// idempotent requests ride out 5xx and 429 as the retry policy says, POST and PATCH are never
// repeated, a long Retry-After goes up to the caller, latency counts against the deadline, and seeded
// fault rates give the same sequence every time.
import { beforeEach, describe, expect, it } from 'vitest';
import { API_RETRY_POLICY } from '../../../src/api/api-retry-policy.js';
import { parseFaultSpec } from '../../../src/emulator/faults.js';
import { apiErrorOf, expectApiStatus } from '../../support/api-error-of.js';
import { callApi, startTestEmulator, type TestEmulator } from '../../support/start-test-emulator.js';
import {
  requestCounts,
  resetRequestCounts,
  setFaults,
  testApiClient,
} from '../../support/test-api-client.js';

const GET_SPACE = 'GET /v1/spaces/:s';
const CREATE_CHANGE_REQUEST = 'POST /v1/spaces/:s/change-requests';

/** Backoff without jitter: baseDelayMs doubled per attempt. */
const backoff = (retries: number) =>
  Array.from({ length: retries }, (_, index) => API_RETRY_POLICY.baseDelayMs * 2 ** index);

/** Statuses of `count` raw GETs (no client, no retries) of the organization. */
async function rawStatuses(test: TestEmulator, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let index = 0; index < count; index += 1) {
    statuses.push((await callApi(`${test.baseUrl}/orgs/${test.orgId}`, test.tokens.reader)).status);
  }
  return statuses;
}

describe('the client against injected faults', async () => {
  const test = await startTestEmulator();
  const setup = testApiClient(test).client;
  const space = await setup.spaces.create(test.orgId, { title: 'Flaky' });
  // Started as `docsync emulator --faults 5xx=0.5,seed=42` would start them.
  const one = await startTestEmulator({ faults: parseFaultSpec('5xx=0.5,seed=42') });
  const two = await startTestEmulator({ faults: parseFaultSpec('5xx=0.5,seed=42') });

  beforeEach(async () => {
    await setFaults(test, {});
    await resetRequestCounts(test);
  });

  it('retries a GET through two forced 503s and succeeds on the third call', async () => {
    const { client, sleeps, attempts } = testApiClient(test);
    await setFaults(test, { forced: [{ status: 503, method: 'GET', times: 2 }] });
    const read = await client.spaces.get(space.id);
    expect(read.id).toBe(space.id);
    expect(attempts.map((attempt) => attempt.status)).toEqual([503, 503, 200]);
    expect(sleeps).toEqual(backoff(2));
    expect((await requestCounts(test)).counts[GET_SPACE]).toBe(3);
    // The forced answers are used up.
    expect(
      (await callApi<{ forced: unknown[] }>(`${test.origin}/_emulator/faults`, test.tokens.admin)).body
        .forced,
    ).toEqual([]);
    await client.spaces.get(space.id);
    expect((await requestCounts(test)).counts[GET_SPACE]).toBe(4);
  });

  it('does not repeat a POST answered 503: one call, a retryable ApiError, nothing created', async () => {
    const { client, sleeps } = testApiClient(test);
    await setFaults(test, { forced: [{ status: 503, method: 'POST', times: 1 }] });
    const error = await expectApiStatus(client.changeRequests.create(space.id, { subject: 'Once' }), 503);
    expect(error).toMatchObject({
      retryable: true,
      method: 'POST',
      path: `/spaces/${space.id}/change-requests`,
    });
    expect(sleeps).toEqual([]);
    expect((await requestCounts(test)).counts[CREATE_CHANGE_REQUEST]).toBe(1);
    expect((await client.spaces.get(space.id)).changeRequests).toBe(0);
  });

  it('repeats a PUT (idempotent) but not a PATCH', async () => {
    const { client, sleeps } = testApiClient(test);
    const cr = await client.changeRequests.create(space.id, { subject: 'Patched once' });
    await setFaults(test, {
      forced: [
        { status: 502, method: 'PATCH' },
        { status: 502, method: 'PUT' },
      ],
    });
    await expectApiStatus(client.changeRequests.patch(space.id, cr.id, { subject: 'Renamed' }), 502);
    expect(sleeps).toEqual([]);
    const spec = await client.openapi.put(test.orgId, 'flaky', { text: 'openapi: 3.1.0' });
    expect(spec.slug).toBe('flaky');
    expect(sleeps).toEqual(backoff(1));
    expect((await client.changeRequests.get(space.id, cr.id)).subject).toBe('Patched once');
    expect((await requestCounts(test)).counts).toMatchObject({
      'PATCH /v1/spaces/:s/change-requests/:cr': 1,
      'PUT /v1/orgs/:o/openapi/:slug': 2,
    });
  });

  it('waits out the Retry-After of a 429 before asking again', async () => {
    const { client, sleeps, attempts } = testApiClient(test);
    await setFaults(test, { forced: [{ status: 429, retryAfterSeconds: 2, method: 'GET', times: 1 }] });
    await client.spaces.get(space.id);
    expect(sleeps).toEqual([2000]);
    expect(attempts.map((attempt) => attempt.status)).toEqual([429, 200]);
    expect((await requestCounts(test)).counts[GET_SPACE]).toBe(2);

    // A 503 may carry one too (another client: this one still holds its requests for the 429's
    // Retry-After, which its recorded sleeps did not really wait).
    const other = testApiClient(test);
    await setFaults(test, { forced: [{ status: 503, retryAfterSeconds: 1, method: 'GET', times: 1 }] });
    await other.client.spaces.get(space.id);
    expect(other.sleeps).toEqual([1000]);
  });

  it('hands a Retry-After longer than the policy holds to the caller as retryAfterMs', async () => {
    const { client, sleeps } = testApiClient(test);
    const seconds = API_RETRY_POLICY.maxRetryAfterMs / 1000 + 60;
    await setFaults(test, { forced: [{ status: 429, retryAfterSeconds: seconds, method: 'GET', times: 1 }] });
    const error = await expectApiStatus(client.spaces.get(space.id), 429);
    expect(error).toMatchObject({ retryable: true, retryAfterMs: seconds * 1000 });
    expect(sleeps).toEqual([]);
    expect((await requestCounts(test)).counts[GET_SPACE]).toBe(1);
  });

  it('gives up after maxAttempts when the 503s do not stop', async () => {
    const { client, sleeps } = testApiClient(test);
    await setFaults(test, { forced: [{ status: 503, method: 'GET', times: 10 }] });
    const error = await expectApiStatus(client.spaces.get(space.id), 503);
    expect(error.retryable).toBe(true);
    expect(sleeps).toEqual(backoff(API_RETRY_POLICY.maxAttempts - 1));
    expect((await requestCounts(test)).counts[GET_SPACE]).toBe(API_RETRY_POLICY.maxAttempts);
  });

  it('aims a forced answer at the paths it names, and treats other 4xx as final', async () => {
    const { client, sleeps } = testApiClient(test);
    await setFaults(test, { forced: [{ status: 409, path: '/change-requests$', times: 3 }] });
    await client.spaces.get(space.id);
    const error = await expectApiStatus(client.changeRequests.list(space.id), 409);
    expect(error.retryable).toBe(false);
    expect(sleeps).toEqual([]);
    expect((await requestCounts(test)).counts).toMatchObject({
      [GET_SPACE]: 1,
      'GET /v1/spaces/:s/change-requests': 1,
    });
  });

  it('adds injected latency to every answer, which counts against the deadline', async () => {
    await setFaults(test, { latencyMs: 200 });
    const patient = testApiClient(test);
    const started = Date.now();
    await patient.client.spaces.get(space.id);
    expect(Date.now() - started).toBeGreaterThanOrEqual(195);
    expect(patient.attempts[0]?.durationMs).toBeGreaterThanOrEqual(195);

    const hasty = testApiClient(test, test.tokens.admin, { timeoutMs: 60 });
    const error = await apiErrorOf(hasty.client.spaces.get(space.id));
    expect(error).toMatchObject({ code: 'API_TIMEOUT', status: 0, retryable: true });
    expect(hasty.sleeps).toHaveLength(API_RETRY_POLICY.maxAttempts - 1);
    expect(hasty.attempts).toHaveLength(API_RETRY_POLICY.maxAttempts);
    // An attempt the deadline ended before the service read it is not counted there (a loaded machine).
    expect((await requestCounts(test)).counts[GET_SPACE]).toBeLessThanOrEqual(
      1 + API_RETRY_POLICY.maxAttempts,
    );
  });

  it('draws --faults rates from a seeded random: the same seed gives the same sequence', async () => {
    const config = parseFaultSpec('429=0.2,5xx=0.3,retry-after=3,seed=7');
    await setFaults(test, config);
    const first = await rawStatuses(test, 30);
    await setFaults(test, config);
    const second = await rawStatuses(test, 30);
    expect(second).toEqual(first);
    expect(new Set(first)).toEqual(new Set([200, 429, 503]));
    await setFaults(test, { ...config, seed: 8 });
    expect(await rawStatuses(test, 30)).not.toEqual(first);

    await setFaults(test, parseFaultSpec('429=1,retry-after=3'));
    const limited = await callApi(`${test.baseUrl}/orgs/${test.orgId}`, test.tokens.reader);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
  });

  it('gives two emulators started with the same --faults the same sequence', async () => {
    const sequence = await rawStatuses(one, 20);
    expect(await rawStatuses(two, 20)).toEqual(sequence);
    expect(sequence).toContain(503);
    expect(sequence).toContain(200);
  });

  it('rides out seeded 5xx on reads: every call succeeds, the retries show in the request count', async () => {
    const { client, sleeps } = testApiClient(test);
    await setFaults(test, parseFaultSpec('5xx=0.25,seed=3'));
    for (let index = 0; index < 20; index += 1) expect((await client.spaces.get(space.id)).id).toBe(space.id);
    const { counts } = await requestCounts(test);
    expect(sleeps.length).toBeGreaterThan(0);
    expect(counts[GET_SPACE]).toBe(20 + sleeps.length);
  });
});
