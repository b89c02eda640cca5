// A successful answer's body read as JSON and checked against the caller's schema: what comes out
// is typed and trusted inside docsync; what does not match is API_RESPONSE_INVALID naming the fields.
// A body that is not JSON at all (a proxy's HTML error page sent with 200, a body cut short) is a
// passing fault of the way there, not the service's answer: retryable, as a 5xx is.
import type { z } from 'zod';
import { formatZodPath } from '../errors/format-zod-path.js';
import { ApiError } from './api-error.js';
import type { ResponseAnswer } from './error-from-response.js';
import { redactSecrets } from './redact-secrets.js';

/** Issues named in the message; all of them stay in `error.issues`. */
const ISSUES_IN_MESSAGE = 3;

export function parseResponseBody<T>(answer: ResponseAnswer, schema: z.ZodType<T>): T {
  const { method, path, status } = answer;
  const base = {
    code: 'API_RESPONSE_INVALID',
    method,
    path,
    status,
    ...(answer.requestId === undefined ? {} : { requestId: answer.requestId }),
  } as const;
  const text = answer.bytes === undefined ? '' : answer.bytes.toString('utf8');
  // 204 and 205 carry no body by definition; anything a server sends with them is ignored.
  let value: unknown;
  if (status !== 204 && status !== 205 && text.trim() !== '') {
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new ApiError({
        ...base,
        message: `${method} ${path}: response body is not JSON`,
        retryable: true,
        cause: new Error(
          redactSecrets(error instanceof Error ? error.message : String(error), answer.secrets),
        ),
      });
    }
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map(
    (issue) => `${formatZodPath(issue.path) || '(body)'}: ${redactSecrets(issue.message, answer.secrets)}`,
  );
  const shown = issues.slice(0, ISSUES_IN_MESSAGE).join('; ');
  const more = issues.length > ISSUES_IN_MESSAGE ? ` (+${issues.length - ISSUES_IN_MESSAGE} more)` : '';
  throw new ApiError({
    ...base,
    message: `${method} ${path}: response does not match the schema: ${shown}${more}`,
    issues,
  });
}
