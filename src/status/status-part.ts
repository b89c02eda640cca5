// One part of /status read on its own: a part that fails or is slow shows `{ error }` in its place,
// so that one unreadable part never costs the whole answer.
import { DocsyncError } from '../errors/docsync-error.js';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';

/** How long a part may take: /status answers within this, whatever Redis does. */
export const STATUS_PART_TIMEOUT_MS = 5000;

export type PartResult<T> = { ok: true; value: T } | { ok: false; error: unknown };

export interface PartError {
  error: string;
}

/** Runs `read`, settling with its value, its error, or a timeout: never rejects. */
export async function readStatusPart<T>(
  read: () => Promise<T>,
  timeoutMs = STATUS_PART_TIMEOUT_MS,
): Promise<PartResult<T>> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new DocsyncError('STATUS_PART_TIMEOUT', `no answer within ${timeoutMs} ms`, { retryable: true }),
        ),
      timeoutMs,
    );
    timer.unref();
  });
  try {
    return { ok: true, value: await Promise.race([Promise.resolve().then(read), timeout]) };
  } catch (error) {
    return { ok: false, error };
  } finally {
    clearTimeout(timer);
  }
}

/** The part's value, or `{ error }` in its place. */
export function partOrError<T>(result: PartResult<T>): T | PartError {
  return result.ok ? result.value : { error: errorMessage(result.error) };
}

/** Why a part could not be read, without the credentials a URL may carry. */
export function errorMessage(error: unknown): string {
  return redactUrlCredentials(error instanceof Error ? error.message : String(error));
}
