// The ApiError a call of docsync's client or transport failed with, for tests to assert on.
import { expect } from 'vitest';
import { ApiError } from '../../src/api/api-error.js';

/** The ApiError `promise` rejects with; fails the test when it resolves or throws something else. */
export async function apiErrorOf(promise: Promise<unknown>): Promise<ApiError> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected an ApiError, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(ApiError);
  return outcome.error as ApiError;
}

/** The service answered `status` (an HTTP error, not a network failure or a schema mismatch). */
export async function expectApiStatus(promise: Promise<unknown>, status: number): Promise<ApiError> {
  const error = await apiErrorOf(promise);
  expect({ code: error.code, status: error.status, message: error.message }).toMatchObject({
    code: 'API_HTTP_ERROR',
    status,
  });
  return error;
}
