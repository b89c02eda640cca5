// `docsync status`: asks a running docsync for its /status and prints it as tables for people, or
// as the JSON it received (--json). The address is --url, else the configuration's http.listen,
// else docsync's default; the token is --token, else DOCSYNC_HTTP_TOKEN, else http.token. For
// monitoring, it exits 1 when a mapping or spec is failing (src/status/health-state.ts).
import type { Config } from '../config/config-schema.js';
import { DEFAULT_HTTP_LISTEN, type ListenAddress } from '../config/listen-address.js';
import { formatZodPath } from '../errors/format-zod-path.js';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';
import { isPartError, type StatusAnswer, statusAnswerSchema } from '../status/status-answer-schema.js';
import type { CliIo } from './cli-io.js';
import { EXIT } from './exit-codes.js';
import { readCliConfig } from './read-cli-config.js';
import { renderStatusTables } from './render-status-tables.js';

export interface StatusFlags {
  url?: string;
  token?: string;
  config?: string;
  json?: boolean;
}

export const STATUS_TIMEOUT_MS = 10_000;

export async function statusCommand(flags: StatusFlags, io: CliIo): Promise<number> {
  const fail = (message: string, code: number = EXIT.failure) => {
    io.stderr.write(`docsync status: ${message}\n`);
    return code;
  };
  let token = flags.token ?? nonEmpty(io.env.DOCSYNC_HTTP_TOKEN);
  let base: string | undefined;
  if (flags.url !== undefined) {
    base = baseUrl(flags.url);
    if (base === undefined)
      return fail(
        `--url ${flags.url} is not an http(s) address, such as http://127.0.0.1:8787`,
        EXIT.invalid,
      );
  }
  const file = flags.config ?? nonEmpty(io.env.DOCSYNC_CONFIG);
  let config: Config | undefined;
  if (file !== undefined && (base === undefined || token === undefined)) {
    config = await readCliConfig(file, io);
    if (config === undefined) return EXIT.invalid;
    token ??= config.http.token;
  }
  const address = base ?? listenUrl(config?.http.listen ?? DEFAULT_HTTP_LISTEN);
  const shown = redactUrlCredentials(address);

  let response: Response;
  try {
    response = await fetch(`${address}/status`, {
      headers: {
        accept: 'application/json',
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      },
      signal: AbortSignal.timeout(STATUS_TIMEOUT_MS),
    });
  } catch (error) {
    if ((error as Error).name === 'TimeoutError')
      return fail(`${shown} did not answer within ${STATUS_TIMEOUT_MS / 1000} s`);
    return fail(
      `cannot reach docsync at ${shown} (${networkCode(error)}): is it running? Give its address with --url`,
    );
  }
  const text = await response.text();
  if (response.status === 401)
    return fail(
      token === undefined
        ? `${shown} needs a token: give --token, set DOCSYNC_HTTP_TOKEN, or --config with http.token`
        : `${shown} refused the token (401): give its http.token`,
    );
  if (!response.ok) return fail(`${shown} answered ${response.status}: ${errorMessageOf(text)}`);

  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return fail(`the answer of ${shown}/status is not JSON: is this a docsync?`);
  }
  const parsed = statusAnswerSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail(
      `the answer of ${shown}/status is not a docsync status: ${issue === undefined ? 'invalid' : `${formatZodPath(issue.path) || '(root)'}: ${issue.message}`}`,
    );
  }
  io.stdout.write(
    flags.json === true
      ? `${text.trimEnd()}\n`
      : renderStatusTables(parsed.data, { now: new Date(), color: useColor(io) }),
  );
  return isFailing(parsed.data) ? EXIT.failure : EXIT.ok;
}

/**
 * Whether a mapping or spec is failing (its job failed health.failingAfter times in a row), or
 * docsync as a whole is (its Redis refuses writes).
 */
export function isFailing(status: StatusAnswer): boolean {
  return (
    [status.mappings, status.openapi].some(
      (part) => !isPartError(part) && part.some((row) => row.state === 'failing'),
    ) ||
    (status.summary?.problems.some((problem) => problem.state === 'failing') ?? false)
  );
}

/** The address given, as the base /status is read under: scheme added, trailing `/` and `/status` removed. */
export function baseUrl(given: string): string | undefined {
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(given) ? given : `http://${given}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  url.search = '';
  url.hash = '';
  return url.href.replace(/\/+$/, '').replace(/\/status$/, '');
}

/** Where a docsync listening on `listen` is reached from this machine. */
export function listenUrl(listen: ListenAddress): string {
  const host = listen.host === '0.0.0.0' ? '127.0.0.1' : listen.host === '::' ? '::1' : listen.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${listen.port}`;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** fetch() wraps the socket error: its code (ECONNREFUSED, ENOTFOUND) says what happened. */
function networkCode(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === 'string' ? cause.code : 'no connection';
}

/** docsync's error body `{"error":{"message":...}}`, else the start of the text. */
function errorMessageOf(text: string): string {
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    if (typeof message === 'string') return message;
  } catch {
    // not JSON: the text itself
  }
  return text.slice(0, 200).replace(/\s+/g, ' ').trim() || 'no message';
}

function useColor(io: CliIo): boolean {
  return (io.stdout as { isTTY?: boolean }).isTTY === true && io.env.NO_COLOR === undefined;
}
