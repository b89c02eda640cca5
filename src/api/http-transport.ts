// The client's only I/O: one undici Pool per base URL, bearer auth, bounded JSON bodies validated
// by zod, retries from the policy table, one deadline per attempt, and a caller's AbortSignal; and
// file downloads from any origin on the same path (the token to the service's origin only).
// Every attempt sent to the service's origin first takes a token of the shared budget, when there
// is one (service-budget.ts). Everything it throws is an ApiError without the token.
import { setMaxListeners } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { type Dispatcher, getGlobalDispatcher, interceptors, Pool } from 'undici';
import type { z } from 'zod';
import { SharedLimit } from '../concurrency/shared-limit.js';
import { DocsyncError } from '../errors/docsync-error.js';
import type { Logger } from '../log/create-logger.js';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';
import { ApiError, type ApiErrorCode } from './api-error.js';
import type { ApiPath } from './api-path.js';
import { API_RETRY_POLICY, type ApiRetryPolicy, planRetry } from './api-retry-policy.js';
import { buildQueryString, type Query } from './build-query-string.js';
import { errorFromFailure } from './error-from-failure.js';
import { errorFromResponse } from './error-from-response.js';
import { parseResponseBody } from './parse-response-body.js';
import { readCappedBody } from './read-capped-body.js';
import { requestPriority } from './request-priority.js';
import { sanitizeCause } from './sanitize-cause.js';
import type { RequestBudget } from './service-budget.js';

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

/** An answer whose body a caller reads as it arrives (see HttpTransport.requestStream). */
export interface StreamedAnswer {
  method: string;
  path: string;
  status: number;
  requestId: string | undefined;
  secrets: readonly string[];
}

export interface StreamRequest<T> {
  query?: Query;
  signal?: AbortSignal | undefined;
  /**
   * Reads a 2xx answer's body as it arrives, for answers too large to hold twice (a revision of a
   * big space); what it throws ends the attempt, and an ApiError it throws is the request's error.
   */
  read: (body: AsyncIterable<Uint8Array>, answer: StreamedAnswer) => Promise<T>;
}

export interface DownloadOptions {
  /** Larger bodies fail with API_RESPONSE_TOO_LARGE, read no further than that. */
  maxBytes: number;
  signal?: AbortSignal | undefined;
  /** Deadline of one attempt; the transport's own when not given. */
  timeoutMs?: number | undefined;
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
  code?: ApiErrorCode;
}

/** A wait before sending a request again, as metrics see it (a 429's is a rate-limit wait). */
export interface ApiRetryEvent {
  method: HttpMethod;
  route: string;
  /** The attempt that failed. */
  attempt: number;
  /** Of the failed attempt; 0 when no answer arrived. */
  status: number;
  code: ApiErrorCode;
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
  /**
   * The rate limit every process on the Redis shares (service.rateLimit): each attempt to the
   * service's origin waits for a token first. None: requests go as they come.
   */
  budget?: RequestBudget | undefined;
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
/** What an error answer to a download is read of, for the service's message. */
const DOWNLOAD_ERROR_BODY_BYTES = 64 * 1024;
/** Downloads are all grouped under one route: their addresses are the service's or a CDN's. */
const DOWNLOAD_ROUTE = 'download';

// Download addresses may be on any origin (a CDN, storage) and redirect: not the service's pool.
let downloadDispatcher: Dispatcher | undefined;
function downloads(): Dispatcher {
  downloadDispatcher ??= getGlobalDispatcher().compose(interceptors.redirect({ maxRedirections: 5 }));
  return downloadDispatcher;
}

export class HttpTransport {
  private readonly pool: Pool;
  private readonly origin: string;
  private readonly basePath: string;
  private readonly headers: Readonly<Record<string, string>>;
  private readonly policy: ApiRetryPolicy;
  private readonly secrets: readonly string[];
  private closing: Promise<void> | undefined;
  /** Ends the waits for the budget when the client closes. */
  private readonly closed = new AbortController();
  /** With a budget: the attempts under way at once, one per connection (see `budgeted`). */
  private readonly budgetTurns: SharedLimit | undefined;
  /**
   * A 429's Retry-After holds every request of this client, not only the refused one: the service
   * limits the token, so the others would be refused too (and count against it).
   */
  private pausedUntil = 0;

  /** Connections to the service at most: no more requests than these are under way at once. */
  get connections(): number {
    return this.options.connections ?? DEFAULT_CONNECTIONS;
  }

  constructor(private readonly options: HttpTransportOptions) {
    const url = parseBaseUrl(options.baseUrl);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.secrets = [options.token];
    this.policy = { ...API_RETRY_POLICY, ...options.retry };
    if (options.budget !== undefined) this.budgetTurns = new SharedLimit(this.connections);
    // Every waiting attempt listens to it; there may be many more than Node's default of 10.
    setMaxListeners(0, this.closed.signal);
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

  /** Largest body read into memory whole; a streamed answer's reader bounds its parts by it. */
  get maxBodyBytes(): number {
    return this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  }

  /** Sends the request, retrying per the policy, and returns the validated body. */
  request<T>(method: HttpMethod, target: ApiPath, request: TransportRequest<T>): Promise<T> {
    return this.retrying(method, target, request.signal, (attempt) =>
      this.attempt(method, target, request, attempt),
    );
  }

  /**
   * A GET whose 2xx body goes to `request.read` as it arrives instead of being read whole: no cap on
   * the whole body here (the reader bounds what it keeps). Retries, deadline, metrics and errors as
   * every other request: an attempt whose body breaks off is tried again from the start.
   */
  requestStream<T>(target: ApiPath, request: StreamRequest<T>): Promise<T> {
    return this.retrying('GET', target, request.signal, (attempt) =>
      this.exchange(
        {
          method: 'GET',
          target,
          attempt,
          signal: request.signal,
          timeoutMs: this.options.timeoutMs,
          budgeted: true,
        },
        async (deadline, seen) => {
          const response = await this.pool.request({
            method: 'GET',
            path: this.basePath + target.path + buildQueryString(request.query),
            headers: this.headers,
            signal: deadline,
          });
          seen.status = response.statusCode;
          seen.requestId = readRequestId(response.headers);
          if (seen.status < 200 || seen.status >= 300) {
            const maxBytes = this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
            const bytes = await readCappedBody(response.body, maxBytes);
            throw errorFromResponse(
              this.answerOf('GET', target, response, bytes ?? Buffer.alloc(0), maxBytes),
              this.policy,
            );
          }
          try {
            return await request.read(response.body, {
              method: 'GET',
              path: target.path,
              status: seen.status,
              requestId: seen.requestId,
              secrets: this.secrets,
            });
          } catch (error) {
            // A reader that gave up leaves the rest of the body unread: drop the connection.
            response.body.destroy();
            throw error;
          }
        },
      ),
    );
  }

  /**
   * The bytes at `url`, a file's download address: with the token only when the address is on the
   * service's own origin (a CDN or storage address gets none, nor does a redirect elsewhere),
   * redirects followed, the body capped at `maxBytes`. Retries, metrics and errors as every other
   * request; the path errors and logs name is the address without its query (signed addresses
   * carry their credentials there).
   */
  download(url: string, options: DownloadOptions): Promise<Buffer> {
    const address = parseDownloadUrl(url);
    const target: ApiPath = {
      path: redactUrlCredentials(address.origin + address.pathname),
      route: DOWNLOAD_ROUTE,
    };
    return this.retrying('GET', target, options.signal, (attempt) =>
      this.downloadAttempt(address, target, options, attempt),
    );
  }

  private async retrying<T>(
    method: HttpMethod,
    target: ApiPath,
    signal: AbortSignal | undefined,
    once: (attempt: number) => Promise<T>,
  ): Promise<T> {
    const random = this.options.random ?? Math.random;
    // When this request's own retry wait ends: a pause it already waited out is not waited again.
    let waitedUntil = 0;
    for (let attempt = 1; ; attempt += 1) {
      const pausedMs = this.pausedUntil - Math.max(Date.now(), waitedUntil);
      if (pausedMs > 0) await this.sleep(pausedMs, method, target, signal);
      try {
        return await once(attempt);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        if (
          error.status === 429 &&
          error.retryAfterMs !== undefined &&
          error.retryAfterMs <= this.policy.maxRetryAfterMs
        )
          this.pausedUntil = Math.max(this.pausedUntil, Date.now() + error.retryAfterMs);
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
        waitedUntil = Date.now() + waitMs;
        await this.sleep(waitMs, method, target, signal);
      }
    }
  }

  /** Waits for requests in flight, then closes the connections. Safe to call more than once. */
  close(): Promise<void> {
    this.closed.abort();
    this.closing ??= this.pool.close().catch(() => undefined);
    return this.closing;
  }

  private attempt<T>(
    method: HttpMethod,
    target: ApiPath,
    request: TransportRequest<T>,
    attempt: number,
  ): Promise<T> {
    return this.exchange(
      { method, target, attempt, signal: request.signal, timeoutMs: this.options.timeoutMs, budgeted: true },
      async (deadline, seen) => {
        const hasBody = request.body !== undefined;
        const response = await this.pool.request({
          method,
          path: this.basePath + target.path + buildQueryString(request.query),
          headers: hasBody ? { ...this.headers, 'content-type': 'application/json' } : this.headers,
          body: hasBody ? JSON.stringify(request.body) : null,
          signal: deadline,
        });
        seen.status = response.statusCode;
        seen.requestId = readRequestId(response.headers);
        const maxBytes = this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
        const answer = this.answerOf(
          method,
          target,
          response,
          await readCappedBody(response.body, maxBytes),
          maxBytes,
        );
        const expected = request.expect?.includes(seen.status) ?? (seen.status >= 200 && seen.status < 300);
        if (!expected || answer.bytes === undefined) throw errorFromResponse(answer, this.policy);
        return parseResponseBody(answer, request.schema);
      },
    );
  }

  private downloadAttempt(
    address: URL,
    target: ApiPath,
    options: DownloadOptions,
    attempt: number,
  ): Promise<Buffer> {
    const ours = address.origin === this.origin;
    return this.exchange(
      {
        method: 'GET',
        target,
        attempt,
        signal: options.signal,
        timeoutMs: options.timeoutMs ?? this.options.timeoutMs,
        // A CDN's or storage's address does not count against the service's limit.
        budgeted: ours,
      },
      async (deadline, seen) => {
        const response = await downloads().request({
          origin: address.origin,
          method: 'GET',
          path: address.pathname + address.search,
          // The redirect interceptor drops authorization when a redirect leaves the origin.
          headers: ours
            ? this.headers
            : { accept: '*/*', 'user-agent': this.headers['user-agent'] ?? 'docsync' },
          signal: deadline,
        });
        seen.status = response.statusCode;
        seen.requestId = ours ? readRequestId(response.headers) : undefined;
        const ok = seen.status >= 200 && seen.status < 300;
        const maxBytes = ok ? options.maxBytes : DOWNLOAD_ERROR_BODY_BYTES;
        const bytes = await readCappedBody(response.body, maxBytes);
        if (!ok) {
          // An error page past the cap says nothing more: its status is the answer.
          throw errorFromResponse(
            this.answerOf('GET', target, response, bytes ?? Buffer.alloc(0), maxBytes),
            this.policy,
          );
        }
        if (bytes === undefined)
          throw errorFromResponse(this.answerOf('GET', target, response, undefined, maxBytes), this.policy);
        return bytes;
      },
    );
  }

  /** What errorFromResponse and parseResponseBody read of an answer. */
  private answerOf(
    method: HttpMethod,
    target: ApiPath,
    response: Dispatcher.ResponseData,
    bytes: Buffer | undefined,
    maxBytes: number,
  ) {
    return {
      method,
      path: target.path,
      secrets: this.secrets,
      status: response.statusCode,
      requestId: readRequestId(response.headers),
      retryAfter: firstHeader(response.headers['retry-after']),
      bytes,
      maxBytes,
      now: (this.options.now ?? Date.now)(),
    };
  }

  /**
   * One attempt of any request: refused when the client is closed or the caller aborted, sent once
   * the budget gives it a token (`budgeted`: the service's origin), bounded by its deadline (the
   * wait for the token not included), reported once to logs and metrics, and every failure an
   * ApiError without the token. `send` notes the status and request id as soon as headers arrive.
   */
  private async exchange<T>(
    call: {
      method: HttpMethod;
      target: ApiPath;
      attempt: number;
      signal: AbortSignal | undefined;
      timeoutMs: number;
      budgeted: boolean;
    },
    send: (deadline: AbortSignal, seen: { status: number; requestId: string | undefined }) => Promise<T>,
  ): Promise<T> {
    const { method, target, signal } = call;
    const context = { method, path: target.path };
    if (this.closing !== undefined) {
      throw new ApiError({
        ...context,
        code: 'API_CLIENT_CLOSED',
        message: `${method} ${target.path}: client closed`,
      });
    }
    if (signal?.aborted) {
      throw new ApiError({ ...context, code: 'API_ABORTED', message: `${method} ${target.path}: aborted` });
    }
    if (call.budgeted && this.budgetTurns !== undefined) {
      const turns = this.budgetTurns;
      return this.budgeted(method, target, signal, (stop) =>
        turns.run(async () => {
          await this.takeBudget(method, target, signal, stop);
          return this.send(call, send);
        }, stop),
      );
    }
    return this.send(call, send);
  }

  /** The attempt itself, under its deadline, reported to logs and metrics. */
  private async send<T>(
    call: {
      method: HttpMethod;
      target: ApiPath;
      attempt: number;
      signal: AbortSignal | undefined;
      timeoutMs: number;
    },
    send: (deadline: AbortSignal, seen: { status: number; requestId: string | undefined }) => Promise<T>,
  ): Promise<T> {
    const { method, target, attempt, signal } = call;
    const context = { method, path: target.path };
    const started = (this.options.now ?? Date.now)();
    const deadline = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      deadline.abort();
    }, call.timeoutMs);
    const forwardAbort = () => deadline.abort();
    signal?.addEventListener('abort', forwardAbort, { once: true });
    const seen: { status: number; requestId: string | undefined } = { status: 0, requestId: undefined };
    try {
      const result = await send(deadline.signal, seen);
      this.report({ method, target, attempt, status: seen.status, started, requestId: seen.requestId });
      return result;
    } catch (error) {
      const failure =
        error instanceof ApiError
          ? error
          : errorFromFailure(error, {
              ...context,
              secrets: this.secrets,
              status: seen.status,
              requestId: seen.requestId,
              aborted: signal?.aborted === true,
              timedOut,
              closed: this.closing !== undefined,
              timeoutMs: call.timeoutMs,
            });
      this.report({
        method,
        target,
        attempt,
        status: failure.status,
        started,
        requestId: seen.requestId,
        code: failure.code,
      });
      throw failure;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forwardAbort);
    }
  }

  /**
   * A budgeted attempt: one of `connections` turns first, so that a request given a token never
   * waits for a connection after it (it would then reach the service later than its token says),
   * then the token. Both waits end when the call is aborted or the client closes.
   */
  private async budgeted<T>(
    method: HttpMethod,
    target: ApiPath,
    signal: AbortSignal | undefined,
    work: (stop: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const stop = signal === undefined ? this.closed.signal : AbortSignal.any([signal, this.closed.signal]);
    try {
      return await work(stop);
    } catch (error) {
      if (error instanceof ApiError || !stop.aborted) throw error;
      const context = { method, path: target.path };
      if (signal?.aborted)
        throw new ApiError({
          ...context,
          code: 'API_ABORTED',
          message: `${method} ${target.path}: aborted while waiting for the service budget`,
        });
      throw new ApiError({
        ...context,
        code: 'API_CLIENT_CLOSED',
        message: `${method} ${target.path}: client closed`,
      });
    }
  }

  private async takeBudget(
    method: HttpMethod,
    target: ApiPath,
    signal: AbortSignal | undefined,
    stop: AbortSignal,
  ): Promise<void> {
    await this.options.budget?.take(requestPriority(method), stop);
    if (signal?.aborted)
      throw new ApiError({
        code: 'API_ABORTED',
        method,
        path: target.path,
        message: `${method} ${target.path}: aborted`,
      });
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
    code?: ApiErrorCode;
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

/** A download address: absolute, http(s), and never sent with credentials written into it. */
function parseDownloadUrl(url: string): URL {
  let address: URL | undefined;
  try {
    address = new URL(url);
  } catch {
    address = undefined;
  }
  if (address === undefined || (address.protocol !== 'http:' && address.protocol !== 'https:'))
    throw new DocsyncError(
      'API_DOWNLOAD_URL_INVALID',
      `not an http(s) download address: ${redactUrlCredentials(url.split('?')[0] ?? '')}`,
    );
  return address;
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
