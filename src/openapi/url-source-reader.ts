// An OpenAPI document at an http(s) address: a conditional GET (If-None-Match, If-Modified-Since),
// redirects followed, a deadline and a size cap per request. `$ref`s may name other addresses of
// the same origin only: a document cannot make docsync read, and upload, what an internal address
// holds.
import { getGlobalDispatcher, interceptors, request } from 'undici';
import { readCappedBody } from '../api/read-capped-body.js';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';
import { OpenApiSourceError } from './openapi-source-error.js';
import type {
  OpenApiSourceReader,
  SourceLimits,
  SourceRead,
  SourceValidators,
} from './openapi-source-types.js';

const MAX_REDIRECTIONS = 5;
const ACCEPT = 'application/yaml, application/x-yaml, application/json;q=0.9, text/*;q=0.5, */*;q=0.1';
const dispatcher = getGlobalDispatcher().compose(
  interceptors.redirect({ maxRedirections: MAX_REDIRECTIONS }),
);

export class UrlSourceReader implements OpenApiSourceReader {
  readonly location: string;
  readonly label: string;
  readonly #limits: SourceLimits;

  constructor(url: string, limits: SourceLimits) {
    this.location = url;
    this.label = redactUrlCredentials(url);
    this.#limits = limits;
  }

  async read(previous: SourceValidators | undefined, signal: AbortSignal): Promise<SourceRead> {
    const headers: Record<string, string> = {};
    if (previous?.etag !== undefined) headers['if-none-match'] = previous.etag;
    if (previous?.lastModified !== undefined) headers['if-modified-since'] = previous.lastModified;
    const answer = await this.#get(this.location, headers, signal);
    if (answer.status === 304) return { kind: 'not-modified' };
    const validators: SourceValidators = {};
    if (answer.etag !== undefined) validators.etag = answer.etag;
    if (answer.lastModified !== undefined) validators.lastModified = answer.lastModified;
    return { kind: 'read', bytes: answer.bytes ?? Buffer.alloc(0), validators };
  }

  async readRef(location: string, signal: AbortSignal): Promise<Buffer> {
    const target = new URL(location);
    if (target.origin !== new URL(this.location).origin) {
      throw new OpenApiSourceError(
        'SOURCE_REFUSED',
        `${this.label}: a $ref names ${redactUrlCredentials(location)}, outside the origin of the document; put the referenced file next to it`,
      );
    }
    const answer = await this.#get(location, {}, signal);
    return answer.bytes ?? Buffer.alloc(0);
  }

  async #get(
    url: string,
    headers: Record<string, string>,
    signal: AbortSignal,
  ): Promise<{
    status: number;
    bytes?: Buffer;
    etag?: string | undefined;
    lastModified?: string | undefined;
  }> {
    const label = redactUrlCredentials(url);
    const { maxBytes, timeoutMs } = this.#limits;
    const deadline = AbortSignal.timeout(timeoutMs);
    let response: Awaited<ReturnType<typeof request>>;
    try {
      response = await request(url, {
        signal: AbortSignal.any([signal, deadline]),
        dispatcher,
        headers: { accept: ACCEPT, ...headers },
      });
    } catch (error) {
      if (signal.aborted) throw error;
      if (deadline.aborted)
        throw new OpenApiSourceError('SOURCE_TIMEOUT', `${label}: no answer within ${timeoutMs} ms`);
      throw new OpenApiSourceError(
        'SOURCE_UNREACHABLE',
        `${label} could not be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
    // Destroying the body early (a refusal, or past the cap) makes it emit an abort error: expected.
    response.body.on('error', () => {});
    const status = response.statusCode;
    if (status === 304) {
      response.body.destroy();
      return { status };
    }
    if (status < 200 || status >= 300) {
      response.body.destroy();
      throw statusError(label, status);
    }
    if (Number(response.headers['content-length'] ?? 0) > maxBytes) {
      response.body.destroy();
      throw tooLarge(label, maxBytes);
    }
    let bytes: Buffer | undefined;
    try {
      bytes = await readCappedBody(response.body, maxBytes);
    } catch (error) {
      if (signal.aborted) throw error;
      if (deadline.aborted)
        throw new OpenApiSourceError('SOURCE_TIMEOUT', `${label}: not read in full within ${timeoutMs} ms`);
      throw new OpenApiSourceError('SOURCE_UNREACHABLE', `${label}: the answer broke off`, { cause: error });
    }
    if (bytes === undefined) throw tooLarge(label, maxBytes);
    return {
      status,
      bytes,
      etag: header(response.headers.etag),
      lastModified: header(response.headers['last-modified']),
    };
  }
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function statusError(label: string, status: number): OpenApiSourceError {
  if (status >= 500 || status === 408 || status === 429)
    return new OpenApiSourceError('SOURCE_UNREACHABLE', `${label} answered HTTP ${status}`);
  if (status === 404 || status === 410)
    return new OpenApiSourceError(
      'SOURCE_NOT_FOUND',
      `${label} answered HTTP ${status}: check the source address`,
    );
  return new OpenApiSourceError(
    'SOURCE_REFUSED',
    `${label} answered HTTP ${status}: check the address and whether it needs credentials`,
  );
}

export function tooLarge(label: string, maxBytes: number): OpenApiSourceError {
  return new OpenApiSourceError(
    'SOURCE_TOO_LARGE',
    `${label} is larger than ${maxBytes} bytes: raise maxBytes of the spec if it should be read`,
    { setting: 'maxBytes' },
  );
}
