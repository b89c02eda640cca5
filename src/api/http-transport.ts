// The client's only I/O: one undici Pool per base URL, bearer auth, bounded JSON bodies validated
// by zod, retries from the policy table, one deadline per attempt, and a caller's AbortSignal.
// Everything it throws is an ApiError without the token.
import { setTimeout as delay } from 'node:timers/promises';
import { Pool } from 'undici';
import type { z } from 'zod';
import { DocsyncError } from '../errors/docsync-error.js';
import type { Logger } from '../log/create-logger.js';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';
import { ApiError } from './api-error.js';
import type { ApiPath } from './api-path.js';
import { API_RETRY_POLICY, type ApiRetryPolicy, planRetry } from './api-retry-policy.js';
import { buildQueryString, type Query } from './build-query-string.js';
import { errorFromFailure } from './error-from-failure.js';
import { errorFromResponse } from './error-from-response.js';
import { parseResponseBody } from './parse-response-body.js';
import { readCappedBody } from './read-capped-body.js';
import { sanitizeCause } from './sanitize-cause.js';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface TransportRequest<T> {
  query?: Query;
  /** Sent as JSON; a request without a body sends no Content-Type. */
  body?: unknown;
  signal?: AbortSignal | undefined;
  schema: z.ZodType<T>;
  /** Accepted statuses; any 2xx when not given. 204 and 205 carry no body. */
  expect?: readonly number[];
}

/** One attempt, as logs and metrics see it. */
export interface ApiAttemptEvent {
  method: HttpMethod;
  route: string;
  path: string;
  attempt: number;
  /** 0 when no answer arrived. */
  status: number;
  durationMs: number;
  requestId?: string;
  code?: string;
}

/** A wait before sending a request again, as metrics see it (a 429's is a rate-limit wait). */
export interface ApiRetryEvent {
  method: HttpMethod;
  route: string;
  /** The attempt that failed. */
  attempt: number;
  /** Of the failed attempt; 0 when no answer arrived. */
  status: number;
  code: string;
  delayMs: number;
}

export interface HttpTransportOptions {
  /** Ends with the interface version: `http://127.0.0.1:8790/v1`. */
  baseUrl: string;
  token: string;
  /** Deadline of one attempt, from sending to the last byte of the body. */
  timeoutMs: number;
  connections?: number;
  keepAliveTimeoutMs?: number;
  /** Largest body read into memory; revisions of big spaces are several MB. */
  maxBodyBytes?: number;
  userAgent?: string;
  logger?: Logger;
  retry?: Partial<ApiRetryPolicy>;
  onAttempt?: (event: ApiAttemptEvent) => void;
  onRetry?: (event: ApiRetryEvent) => void;
  /** Injected by tests so that backoff does not really wait. Rejects when `signal` fires. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

const DEFAULT_CONNECTIONS = 8;
/** Below Node's 5 s server keep-alive, so that the client never reuses a socket the server is closing. */
const DEFAULT_KEEP_ALIVE_MS = 4_000;
const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;
const REQUEST_ID_HEADERS = ['x-request-id', 'x-correlation-id', 'request-id'];

export class HttpTransport {
  private readonly pool: Pool;
  private readonly basePath: string;
  private readonly headers: Readonly<Record<string, string>>;
  private readonly policy: ApiRetryPolicy;
  private readonly secrets: readonly string[];
  private closing: Promise<void> | undefined;

  constructor(private readonly options: HttpTransportOptions) {
    const url = parseBaseUrl(options.baseUrl);
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.secrets = [options.token];
    this.policy = { ...API_RETRY_POLICY, ...options.retry };
    this.headers = {
      authorization: `Bearer ${options.token}`,
      accept: '*/*',
      'user-agent': options.userAgent ?? 'docsync',
    };
    this.pool = new Pool(url.origin, {
      connections: options.connections ?? DEFAULT_CONNECTIONS,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? DEFAULT_KEEP_ALIVE_MS,
      connect: { timeout: options.timeoutMs },
    });
    // undici's Pool emits no 'error' event (failures reject the request that suffered them); a
    // failed connection is still worth a debug line, since several requests may share it.
    this.pool.on('connectionError', (_origin, _targets, error) => {
      options.logger?.debug({ err: sanitizeCause(error, this.secrets) }, 'api connection failed');
    });
  }

  /** Sends the request, retrying per the policy, and returns the validated body. */
  async request<T>(method: HttpMethod, target: ApiPath, request: TransportRequest<T>): Promise<T> {
    const random = this.options.random ?? Math.random;
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.attempt(method, target, request, attempt);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        const waitMs = planRetry(method, error, attempt, random, this.policy);
        if (waitMs === undefined) throw error;
        this.options.logger?.debug(
          { method, route: target.route, attempt, code: error.code, status: error.status, delayMs: waitMs },
          'api request retrying',
        );
        this.notify(() =>
          this.options.onRetry?.({
            method,
            route: target.route,
            attempt,
            status: error.status,
            code: error.code,
            delayMs: waitMs,
          }),
        );
        await this.sleep(waitMs, method, target, request.signal);
      }
    }
  }

  /** Waits for requests in flight, then closes the connections. Safe to call more than once. */
  close(): Promise<void> {
    this.closing ??= this.pool.close().catch(() => undefined);
    return this.closing;
  }

  private async attempt<T>(
    method: HttpMethod,
    target: ApiPath,
    request: TransportRequest<T>,
    attempt: number,
  ): Promise<T> {
    const context = { method, path: target.path };
    if (this.closing !== undefined) {
      throw new ApiError({
        ...context,
        code: 'API_CLIENT_CLOSED',
        message: `${method} ${target.path}: client closed`,
      });
    }
    if (request.signal?.aborted) {
      throw new ApiError({ ...context, code: 'API_ABORTED', message: `${method} ${target.path}: aborted` });
    }
    const now = this.options.now ?? Date.now;
    const started = now();
    const deadline = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      deadline.abort();
    }, this.options.timeoutMs);
    const forwardAbort = () => deadline.abort();
    request.signal?.addEventListener('abort', forwardAbort, { once: true });
    let status = 0;
    let requestId: string | undefined;
    try {
      const hasBody = request.body !== undefined;
      const response = await this.pool.request({
        method,
        path: this.basePath + target.path + buildQueryString(request.query),
        headers: hasBody ? { ...this.headers, 'content-type': 'application/json' } : this.headers,
        body: hasBody ? JSON.stringify(request.body) : null,
        signal: deadline.signal,
      });
      status = response.statusCode;
      requestId = readRequestId(response.headers);
      const maxBytes = this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
      const bytes = await readCappedBody(response.body, maxBytes);
      const answer = {
        ...context,
        secrets: this.secrets,
        status,
        requestId,
        retryAfter: firstHeader(response.headers['retry-after']),
        bytes,
        maxBytes,
        now: now(),
      };
      const expected = request.expect?.includes(status) ?? (status >= 200 && status < 300);
      if (!expected || bytes === undefined) throw errorFromResponse(answer, this.policy);
      const result = parseResponseBody(answer, request.schema);
      this.report({ method, target, attempt, status, started, requestId });
      return result;
    } catch (error) {
      const failure =
        error instanceof ApiError
          ? error
          : errorFromFailure(error, {
              ...context,
              secrets: this.secrets,
              status,
              requestId,
              aborted: request.signal?.aborted === true,
              timedOut,
              closed: this.closing !== undefined,
              timeoutMs: this.options.timeoutMs,
            });
      this.report({
        method,
        target,
        attempt,
        status: failure.status,
        started,
        requestId,
        code: failure.code,
      });
      throw failure;
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', forwardAbort);
    }
  }

  private async sleep(ms: number, method: HttpMethod, target: ApiPath, signal?: AbortSignal): Promise<void> {
    try {
      if (this.options.sleep) await this.options.sleep(ms, signal);
      else await delay(ms, undefined, signal === undefined ? undefined : { signal });
    } catch (error) {
      if (signal?.aborted !== true) throw error;
    }
    if (signal?.aborted) {
      throw new ApiError({
        code: 'API_ABORTED',
        method,
        path: target.path,
        message: `${method} ${target.path}: aborted while waiting to retry`,
      });
    }
  }

  private report(outcome: {
    method: HttpMethod;
    target: ApiPath;
    attempt: number;
    status: number;
    started: number;
    requestId: string | undefined;
    code?: string;
  }): void {
    const event: ApiAttemptEvent = {
      method: outcome.method,
      route: outcome.target.route,
      path: outcome.target.path,
      attempt: outcome.attempt,
      status: outcome.status,
      durationMs: (this.options.now ?? Date.now)() - outcome.started,
      ...(outcome.requestId === undefined ? {} : { requestId: outcome.requestId }),
      ...(outcome.code === undefined ? {} : { code: outcome.code }),
    };
    this.options.logger?.debug(event, 'api request');
    this.notify(() => this.options.onAttempt?.(event));
  }

  private notify(hook: () => void): void {
    try {
      hook();
    } catch {
      // A metrics hook must not change the outcome of a request.
    }
  }
}

function parseBaseUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch (error) {
    throw new DocsyncError('API_BASE_URL_INVALID', `not a URL: ${redactUrlCredentials(baseUrl)}`, {
      cause: error,
    });
  }
  const problem =
    url.protocol !== 'http:' && url.protocol !== 'https:'
      ? 'must be http(s)'
      : url.username !== '' || url.password !== ''
        ? 'must not carry credentials; the token is sent as a bearer header'
        : url.search !== '' || url.hash !== ''
          ? 'must not carry a query string or fragment'
          : undefined;
  if (problem !== undefined) {
    throw new DocsyncError(
      'API_BASE_URL_INVALID',
      `service base URL ${problem}: ${redactUrlCredentials(baseUrl)}`,
    );
  }
  return url;
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function readRequestId(headers: Record<string, string | string[] | undefined>): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const text = firstHeader(headers[name]);
    if (text !== undefined && /^[\w.:/+=-]{1,128}$/.test(text)) return text;
  }
  return undefined;
}
