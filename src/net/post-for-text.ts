// One POST to a git host's API (GitHub, GitLab) and its answer as text: undici, a deadline, a size
// cap on the answer. What the host answered, whatever its status, is returned for the caller to
// judge; no answer at all (a refused connection, the deadline, a body that broke off) is a
// NoAnswerError, which each caller turns into its own passing error. The caller's own abort is
// thrown as it came.
import { request } from 'undici';
import { readCappedBody } from '../api/read-capped-body.js';

export interface PostOptions {
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  timeoutMs: number;
  maxAnswerBytes: number;
}

export interface TextAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** No answer: `reason` says why, for a message (`no answer within 10000 ms`, `ECONNREFUSED`). */
export class NoAnswerError extends Error {
  constructor(
    readonly reason: string,
    readonly httpStatus: number | undefined,
    options: { cause: unknown },
  ) {
    super(reason, options);
    this.name = 'NoAnswerError';
  }
}

export async function postForText(url: string, options: PostOptions): Promise<TextAnswer> {
  const { signal, timeoutMs } = options;
  const deadline = AbortSignal.timeout(timeoutMs);
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(url, {
      method: 'POST',
      headers: options.headers,
      ...(options.body === undefined ? {} : { body: options.body }),
      signal: AbortSignal.any([signal, deadline]),
    });
  } catch (error) {
    if (signal.aborted) throw error;
    const reason = deadline.aborted
      ? `no answer within ${timeoutMs} ms`
      : ((error as NodeJS.ErrnoException).code ?? 'connection failed');
    throw new NoAnswerError(reason, undefined, { cause: error });
  }
  response.body.on('error', () => {});
  let bytes: Buffer | undefined;
  try {
    bytes = await readCappedBody(response.body, options.maxAnswerBytes);
  } catch (error) {
    if (signal.aborted) throw error;
    throw new NoAnswerError('the answer broke off', response.statusCode, { cause: error });
  }
  return { status: response.statusCode, headers: response.headers, text: bytes?.toString('utf8') ?? '' };
}
