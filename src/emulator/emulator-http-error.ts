// An error the local service answers with, and the body of every error answer: the public
// document's error shape, `{"error": {"code", "message"}}`, whose `code` is the HTTP status.
export class EmulatorHttpError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'EmulatorHttpError';
    this.status = status;
    this.headers = headers;
  }
}

export interface ErrorBody {
  error: { code: number; message: string };
}

export function errorBody(status: number, message: string): ErrorBody {
  return { error: { code: status, message } };
}

export const notFound = (what: string) => new EmulatorHttpError(404, `${what} not found`);
export const badRequest = (message: string) => new EmulatorHttpError(400, message);
export const forbidden = (message: string) => new EmulatorHttpError(403, message);
export const conflict = (message: string) => new EmulatorHttpError(409, message);
