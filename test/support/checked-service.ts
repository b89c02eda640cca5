// Requests to the local service whose every answer is checked against the public document: a
// success with a body against the operation's schema for that status (which the document must have),
// an error against its error shape. `allowed` names differences a test expects on purpose.
import { expect } from 'vitest';
import { checkErrorAnswer } from './check-error-answer.js';
import { documentRouteOf } from './document-route.js';
import { checkResponse } from './service-document.js';
import type { ServiceRequest } from './service-request.js';
import type { ApiAnswer } from './start-test-emulator.js';

export type AllowedDifferences = (
  method: string,
  route: string,
  status: number,
  body: unknown,
) => readonly string[];

export function checkedService(
  request: ServiceRequest,
  allowed: AllowedDifferences = () => [],
): ServiceRequest {
  return async <T>(path: string, method = 'GET', body?: unknown): Promise<ApiAnswer<T>> => {
    const answer = await request<T>(path, method, body);
    const route = documentRouteOf(`/v1${path}`);
    expect(route, `the document has no path for ${path}`).toBeDefined();
    const address = route ?? path;
    const check =
      answer.status >= 400
        ? checkErrorAnswer(method, address, answer.status, answer.body)
        : checkResponse(method, address, answer.status, answer.body);
    const hasBody = answer.body !== undefined;
    expect({
      method,
      route,
      status: answer.status,
      known: check.known || !hasBody,
      errors: check.errors,
    }).toEqual({
      method,
      route,
      status: answer.status,
      known: true,
      errors: [...allowed(method, address, answer.status, answer.body)],
    });
    return answer;
  };
}
