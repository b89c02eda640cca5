// The one I/O of GitHub App auth: POST {apiUrl}/app/installations/{id}/access_tokens with the app's
// JWT, with undici, a deadline and a size cap on the answer, and the answer checked with zod. A
// refusal (401, 403, 404, 422) is permanent; no answer, a 5xx or a rate limit passes and is retried.
import { z } from 'zod';
import { NoAnswerError, postForText, type TextAnswer } from '../net/post-for-text.js';
import { GitHubAppError } from './github-app-error.js';

export const TOKEN_REQUEST_TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 256 * 1024;
const MAX_QUOTED = 200;

export interface InstallationTokenTarget {
  appId: string;
  installationId: string;
  apiUrl: string;
}

export interface InstallationToken {
  token: string;
  /** When GitHub says the token stops working, in ms since the epoch. */
  expiresAtMs: number;
}

const answerSchema = z.object({
  token: z.string().min(1),
  expires_at: z.iso.datetime({ offset: true }),
});

export async function requestInstallationToken(
  target: InstallationTokenTarget,
  jwt: string,
  signal: AbortSignal,
  timeoutMs = TOKEN_REQUEST_TIMEOUT_MS,
): Promise<InstallationToken> {
  const url = `${target.apiUrl.replace(/\/+$/, '')}/app/installations/${encodeURIComponent(target.installationId)}/access_tokens`;
  let answer: TextAnswer;
  try {
    answer = await postForText(url, {
      headers: {
        authorization: `Bearer ${jwt}`,
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        'user-agent': 'docsync',
      },
      signal,
      timeoutMs,
      maxAnswerBytes: MAX_ANSWER_BYTES,
    });
  } catch (error) {
    if (!(error instanceof NoAnswerError)) throw error;
    throw unreachable(target, error.reason, error.httpStatus, error.cause);
  }
  const { text } = answer;
  const httpStatus = answer.status;
  if (httpStatus < 200 || httpStatus >= 300) throw refusal(target, httpStatus, answer.headers, text);
  const parsed = answerSchema.safeParse(parseJson(text));
  if (!parsed.success)
    throw new GitHubAppError(
      'GITHUB_APP_REFUSED',
      `${appName(target)}: the answer to the installation token request is not a token (check git.auth.githubApp.apiUrl: is it GitHub's API?)`,
      { setting: 'git.auth.githubApp.apiUrl', httpStatus },
    );
  return { token: parsed.data.token, expiresAtMs: Date.parse(parsed.data.expires_at) };
}

function appName(target: InstallationTokenTarget): string {
  return `GitHub App ${target.appId}, installation ${target.installationId}`;
}

function unreachable(
  target: InstallationTokenTarget,
  reason: string,
  httpStatus: number | undefined,
  cause?: unknown,
): GitHubAppError {
  return new GitHubAppError(
    'GITHUB_APP_UNREACHABLE',
    `${appName(target)}: no installation token from ${new URL(target.apiUrl).host} (${reason})`,
    { setting: 'git.auth.githubApp.apiUrl', httpStatus, cause },
  );
}

/** What each refusal means, and the setting to fix: GitHub's answers to this one request. */
function refusal(
  target: InstallationTokenTarget,
  httpStatus: number,
  headers: Record<string, string | string[] | undefined>,
  text: string,
): GitHubAppError {
  const said = hostMessage(text);
  const quoted = said === '' ? '' : ` (GitHub: ${said})`;
  const rateLimited =
    httpStatus === 429 ||
    (httpStatus === 403 &&
      (headers['x-ratelimit-remaining'] === '0' || headers['retry-after'] !== undefined));
  if (httpStatus >= 500 || rateLimited)
    return unreachable(target, `answered ${httpStatus}${rateLimited ? ', rate limited' : ''}`, httpStatus);
  const name = appName(target);
  if (httpStatus === 401)
    return new GitHubAppError(
      'GITHUB_APP_REFUSED',
      `${name}: GitHub refused the app's signed token with 401${quoted}: the private key is not this app's (check git.auth.githubApp.privateKeyFile or privateKeyEnv against git.auth.githubApp.appId), or this machine's clock is wrong (check it is synchronised)`,
      { setting: 'git.auth.githubApp.privateKeyFile', httpStatus },
    );
  if (httpStatus === 404)
    return new GitHubAppError(
      'GITHUB_APP_REFUSED',
      `${name}: GitHub knows no installation ${target.installationId} of app ${target.appId} (404)${quoted}: check git.auth.githubApp.installationId and appId, and that the app is installed on the repository`,
      { setting: 'git.auth.githubApp.installationId', httpStatus },
    );
  return new GitHubAppError(
    'GITHUB_APP_REFUSED',
    `${name}: GitHub refused an installation token with ${httpStatus}${quoted}: check that the installation is not suspended and that the app may read the repository (git.auth.githubApp.installationId)`,
    { setting: 'git.auth.githubApp.installationId', httpStatus },
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function hostMessage(text: string): string {
  const body = parseJson(text) as { message?: unknown } | undefined;
  const said = body?.message;
  return (typeof said === 'string' ? said : '').replace(/\s+/g, ' ').slice(0, MAX_QUOTED);
}
