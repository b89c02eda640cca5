// Error answers against the public document: the operation's own error response where it lists
// the status (404 NotFoundError, 400 BadRequestError, 409 ConflictError), else the document's
// generic `Error` schema, which every error response of the document shares; and in both cases
// `error.code` must be the HTTP status.
import {
  checkResponse,
  describeErrors,
  documentAjv,
  type SchemaCheck,
  serviceDocument,
} from './service-document.js';

let validateError: ((value: unknown) => SchemaCheck) | undefined;

function checkGenericError(body: unknown): SchemaCheck {
  if (validateError === undefined) {
    // The generic error schema has no references: it compiles on its own.
    const validate = documentAjv({ allErrors: true }).compile(
      serviceDocument.components.schemas?.Error as object,
    );
    validateError = (value) => {
      const valid = validate(value) as boolean;
      return { known: true, valid, errors: valid ? [] : describeErrors(validate.errors ?? []) };
    };
  }
  return validateError(body);
}

/** Checks an error answer (status 400 and up) of `method path` with the document. */
export function checkErrorAnswer(method: string, path: string, status: number, body: unknown): SchemaCheck {
  const own = checkResponse(method, path, status, body);
  const result = own.known ? own : checkGenericError(body);
  const code = (body as { error?: { code?: unknown } } | undefined)?.error?.code;
  if (code === status) return result;
  return {
    known: true,
    valid: false,
    errors: [...result.errors, `/error/code is ${String(code)}, not ${status}`],
  };
}
