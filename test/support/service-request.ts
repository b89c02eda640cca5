// Requests to the local service's `/v1` routes as one member, without docsync's client: for tests of
// the routes the client does not wrap (the local service serves the whole interface). JSON in and
// out, no schema, no retries.
import { expect } from 'vitest';
import { type ApiAnswer, callApi, type TestEmulator } from './start-test-emulator.js';

/** `GET` unless told; the answer whatever its status. */
export type ServiceRequest = <T = unknown>(
  path: string,
  method?: string,
  body?: unknown,
) => Promise<ApiAnswer<T>>;

/** `serviceAs(test, test.tokens.reader)('/spaces/s1')`: `GET /v1/spaces/s1` with the reader's token. */
export function serviceAs(test: TestEmulator, token: string | undefined): ServiceRequest {
  return (path, method = 'GET', body) => callApi(`${test.baseUrl}${path}`, token, method, body);
}

/** The body of an answer with `status`; fails the test otherwise, showing what the service said. */
export async function bodyOf<T>(answer: Promise<ApiAnswer<T>>, status = 200): Promise<T> {
  const { status: got, body } = await answer;
  expect({ status: got, body }).toMatchObject({ status });
  return body;
}

/** What the service answers a request it refuses. */
export interface ServiceErrorBody {
  error: { code: number; message: string };
}

/** The service's message in an answer with `status`, an error status. */
export async function errorOf(answer: Promise<ApiAnswer<ServiceErrorBody>>, status: number): Promise<string> {
  return (await bodyOf(answer, status)).error.message;
}
