// Loads what an address holds with undici, within the local service's limits: the deadline covers
// the whole exchange, the body is read up to a size cap, redirects are followed. Used by content
// imports and by OpenAPI URL sources.
import type { Readable } from 'node:stream';
import { getGlobalDispatcher, interceptors, request } from 'undici';
import type { EmulatorLimits } from './emulator-context.js';

export type FetchedSource =
  | { ok: true; bytes: Buffer }
  | { ok: false; code: 'FETCH_TIMEOUT' | 'FETCH_ERROR'; reason: string };

const MAX_REDIRECTIONS = 5;

export async function fetchSource(
  url: string,
  limits: Pick<EmulatorLimits, 'fetchMaxBytes' | 'fetchTimeoutMs'>,
  accept = '*/*',
): Promise<FetchedSource> {
  const signal = AbortSignal.timeout(limits.fetchTimeoutMs);
  try {
    const response = await request(url, {
      signal,
      dispatcher: getGlobalDispatcher().compose(interceptors.redirect({ maxRedirections: MAX_REDIRECTIONS })),
      headers: { accept },
    });
    // Destroying the body early (a refusal, or past the cap) makes it emit an abort error: expected.
    response.body.on('error', () => {});
    const declared = Number(response.headers['content-length'] ?? 0);
    if (response.statusCode < 200 || response.statusCode >= 300) {
      response.body.destroy();
      return { ok: false, code: 'FETCH_ERROR', reason: `the address answered HTTP ${response.statusCode}` };
    }
    if (declared > limits.fetchMaxBytes) {
      response.body.destroy();
      return {
        ok: false,
        code: 'FETCH_ERROR',
        reason: `the content is larger than ${limits.fetchMaxBytes} bytes`,
      };
    }
    const bytes = await readCappedBody(response.body, limits.fetchMaxBytes);
    if (bytes === undefined)
      return {
        ok: false,
        code: 'FETCH_ERROR',
        reason: `the content is larger than ${limits.fetchMaxBytes} bytes`,
      };
    return { ok: true, bytes };
  } catch (error) {
    // Refused, reset, bad address, too many redirects: an error; the deadline passing: a timeout.
    if (signal.aborted)
      return {
        ok: false,
        code: 'FETCH_TIMEOUT',
        reason: `no complete answer within ${limits.fetchTimeoutMs} ms`,
      };
    return {
      ok: false,
      code: 'FETCH_ERROR',
      reason: `the address could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    };
  }
}

/** The whole body, or undefined (with the stream destroyed) as soon as it grows past `maxBytes`. */
async function readCappedBody(body: Readable, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += buffer.length;
    if (size > maxBytes) {
      body.destroy();
      return undefined;
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, size);
}
