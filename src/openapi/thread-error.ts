// Errors crossing between the main thread and the OpenAPI worker: a structured clone keeps an
// Error's message but not its class, code or problems, so each goes over as plain data and is built
// again on the other side as the same class, with every field /status and the tests read.
import { DocsyncError } from '../errors/docsync-error.js';
import { OpenApiInvalidError } from './openapi-invalid-error.js';
import { OpenApiSourceError } from './openapi-source-error.js';

/** The classes rebuilt as themselves; any other error comes back as a plain Error with its message. */
const CLASSES = { OpenApiInvalidError, OpenApiSourceError, DocsyncError } as const;

type ClassName = keyof typeof CLASSES;

export interface ThreadError {
  className: ClassName | 'Error';
  name: string;
  message: string;
  stack: string | undefined;
  /** The error's own fields (code, retryable, problems, total...), each one that can be cloned. */
  fields: Record<string, unknown>;
  cause: ThreadError | undefined;
}

export function toThreadError(error: unknown): ThreadError {
  if (!(error instanceof Error))
    return {
      className: 'Error',
      name: 'Error',
      message: String(error),
      stack: undefined,
      fields: {},
      cause: undefined,
    };
  const className = (Object.keys(CLASSES) as ClassName[]).find((name) => error instanceof CLASSES[name]);
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (key === 'cause' || !cloneable(value)) continue;
    fields[key] = value;
  }
  return {
    className: className ?? 'Error',
    name: error.name,
    message: error.message,
    stack: error.stack,
    fields,
    cause: error.cause === undefined ? undefined : toThreadError(error.cause),
  };
}

export function fromThreadError(data: ThreadError): Error {
  const prototype = data.className === 'Error' ? Error.prototype : CLASSES[data.className].prototype;
  // Built without its constructor: the message, the code and the problems are those the other
  // thread made, not made again (an OpenApiInvalidError's message counts problems it no longer has).
  const error = Object.create(prototype) as Error;
  Object.defineProperty(error, 'message', { value: data.message, writable: true, configurable: true });
  if (data.stack !== undefined)
    Object.defineProperty(error, 'stack', { value: data.stack, writable: true, configurable: true });
  if (data.cause !== undefined)
    Object.defineProperty(error, 'cause', {
      value: fromThreadError(data.cause),
      writable: true,
      configurable: true,
    });
  Object.assign(error, data.fields);
  error.name = data.name;
  return error;
}

function cloneable(value: unknown): boolean {
  if (typeof value === 'function' || typeof value === 'symbol') return false;
  try {
    structuredClone(value);
    return true;
  } catch {
    return false;
  }
}
