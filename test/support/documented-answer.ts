// An answer of the local service checked against the public document: valid for the schema the
// document gives that operation and status. For answers docsync's client has parsed: its schemas
// keep every member (loose objects, no defaults), so the parsed record is the answer as sent.
import { expect } from 'vitest';
import { checkErrorAnswer } from './check-error-answer.js';
import { checkResponse } from './service-document.js';
import type { ApiAnswer } from './start-test-emulator.js';

/** `body`, once the document's schema for `method path` and `status` accepts it (it must have one). */
export function documented<T>(method: string, path: string, status: number, body: T): T {
  const check = checkResponse(method, path, status, body);
  expect({ known: check.known, errors: check.errors }).toEqual({ known: true, errors: [] });
  return body;
}

/** The error answer of `method path`: its status, and its body valid against the document. */
export async function documentedError(
  method: string,
  path: string,
  answer: Promise<ApiAnswer<unknown>>,
  status: number,
): Promise<string> {
  const { status: got, body } = await answer;
  expect({ status: got, body }).toMatchObject({ status });
  const check = checkErrorAnswer(method, path, status, body);
  expect(check.errors).toEqual([]);
  return (body as { error: { message: string } }).error.message;
}
