// The one I/O of commit statuses: POST one status to the git host with undici, a deadline and a
// size cap on the answer, and the answer checked with zod. A refusal (4xx) is a permanent
// GitHostError; no answer, a 5xx or a rate limit is a passing one, which the job retries with backoff.
// The token comes from `options.token` (status-token.ts: a GitHub App's is asked for per post), else
// from the report itself.
import { NoAnswerError, postForText, type TextAnswer } from '../net/post-for-text.js';
import type { CommitStatus } from './commit-status.js';
import { GitHostError } from './git-host-error.js';
import type { GitHostReport } from './report-config-schema.js';
import { postedStatusSchema, statusRequest, statusTarget } from './status-request.js';
import { type StatusToken, statusToken } from './status-token.js';

export const POST_TIMEOUT_MS = 10_000;

/** The answers are a few hundred bytes: more is not a status. */
const MAX_ANSWER_BYTES = 256 * 1024;

/** How much of the host's own message an error quotes. */
const MAX_QUOTED = 200;

/**
 * The status as the host keeps it: its id, or `unchanged` when GitLab refused to move a pending or
 * running status to the same state again (it answers 400 "Cannot transition status via :enqueue
 * from :pending"): the commit already shows that state, which is what was asked.
 */
export type PostedStatus = { id: number } | { unchanged: true };

/** GitLab's words for a status already in the state asked: it gives no code, only this message. */
const GITLAB_SAME_STATE = /^Cannot transition status via :\w+ from :(pending|running)\b/;

export async function postCommitStatus(
  report: GitHostReport,
  sha: string,
  status: CommitStatus,
  signal: AbortSignal,
  options: { token?: StatusToken; timeoutMs?: number } = {},
): Promise<PostedStatus> {
  const { host } = report;
  const { timeoutMs = POST_TIMEOUT_MS } = options;
  const where = statusTarget(report);
  const token = await (options.token ?? statusToken(report, undefined))(signal);
  const built = statusRequest(report, sha, status, token);
  let answer: TextAnswer;
  try {
    answer = await postForText(built.url, {
      headers: built.headers,
      body: built.body,
      signal,
      timeoutMs,
      maxAnswerBytes: MAX_ANSWER_BYTES,
    });
  } catch (error) {
    if (!(error instanceof NoAnswerError)) throw error;
    throw new GitHostError('GIT_HOST_UNREACHABLE', `${where}: commit status not posted (${error.reason})`, {
      host,
      ...(error.httpStatus === undefined ? {} : { httpStatus: error.httpStatus }),
      cause: error.cause,
    });
  }
  const { text } = answer;
  const httpStatus = answer.status;
  if (httpStatus < 200 || httpStatus >= 300) {
    const said = hostMessage(text, token);
    if (host === 'gitlab' && httpStatus === 400 && GITLAB_SAME_STATE.test(said)) return { unchanged: true };
    const passing = httpStatus >= 500 || httpStatus === 429 || isRateLimit(httpStatus, answer.headers);
    throw new GitHostError(
      passing ? 'GIT_HOST_UNREACHABLE' : 'GIT_HOST_REFUSED',
      `${where}: commit status refused with ${httpStatus}${said === '' ? '' : ` (${said})`}`,
      { host, httpStatus },
    );
  }
  const parsed = postedStatusSchema[host].safeParse(parseJson(text));
  if (!parsed.success)
    throw new GitHostError(
      'GIT_HOST_REFUSED',
      `${where}: the answer to a commit status is not a status (check report.${host} of the mapping: is it the API?)`,
      { host, httpStatus },
    );
  return { id: parsed.data.id };
}

/** GitHub answers a rate limit with 403 and no requests left, or with Retry-After (secondary limits). */
function isRateLimit(httpStatus: number, headers: Record<string, string | string[] | undefined>): boolean {
  return (
    httpStatus === 403 && (headers['x-ratelimit-remaining'] === '0' || headers['retry-after'] !== undefined)
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The host's own words (GitHub's `message`, GitLab's `message` or `error`), short and without the token. */
function hostMessage(text: string, token: string): string {
  const body = parseJson(text) as { message?: unknown; error?: unknown } | undefined;
  const said = body?.message ?? body?.error;
  const line = typeof said === 'string' ? said : said === undefined ? '' : JSON.stringify(said);
  return line.replaceAll(token, '[redacted]').replace(/\s+/g, ' ').slice(0, MAX_QUOTED);
}
