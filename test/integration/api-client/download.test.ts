// File downloads through the service client: the token only on the service's own origin (never to
// a CDN, nor after a redirect to one), the size cap, retries and metrics as every other request,
// and errors that carry neither the token nor a signed address's query.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/api-error.js';
import { createDocsApiClient } from '../../../src/api/create-docs-api-client.js';
import type { ApiAttemptEvent } from '../../../src/api/http-transport.js';
import { DocsyncError } from '../../../src/errors/docsync-error.js';
import { downloadFile } from '../../../src/export/download-file.js';
import { closeAfter } from '../../support/close-after.js';
import { type FileServer, startFileServer } from '../../support/file-server.js';

const TOKEN = 'download-test-token-0123456789';

/** A client whose service is `service`, backoff recorded instead of waited. */
function clientFor(service: FileServer) {
  const attempts: ApiAttemptEvent[] = [];
  const sleeps: number[] = [];
  const client = createDocsApiClient(
    { baseUrl: `${service.origin}/v1`, token: TOKEN, timeout: 5_000 },
    {
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      onAttempt: (event) => attempts.push(event),
    },
  );
  closeAfter(() => client.close());
  return { client, attempts, sleeps };
}

/** Serves `body` at `path`, remembering the authorization header of every request. */
function recording(server: FileServer, path: string, body = 'file bytes') {
  const seen: Array<string | undefined> = [];
  const url = server.route(path, (request) => {
    seen.push(request.headers.authorization);
    return { status: 200, body };
  });
  return { url, seen };
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('api.content.download', () => {
  it('sends the token to the service origin only, never to another origin', async () => {
    const service = await startFileServer();
    const cdn = await startFileServer();
    const { client } = clientFor(service);
    const own = recording(service, '/files/own.png', 'own');
    const other = recording(cdn, '/files/cdn.png', 'cdn');
    expect((await client.content.download(own.url, { maxBytes: 1024 })).toString()).toBe('own');
    expect((await client.content.download(other.url, { maxBytes: 1024 })).toString()).toBe('cdn');
    expect(own.seen).toEqual([`Bearer ${TOKEN}`]);
    expect(other.seen).toEqual([undefined]);
  });

  it('follows a redirect from the service to another origin without the token', async () => {
    const service = await startFileServer();
    const cdn = await startFileServer();
    const { client } = clientFor(service);
    const target = recording(cdn, '/stored/blob', 'moved bytes');
    const redirect = service.route('/files/moved', () => ({
      status: 302,
      headers: { location: `${target.url}?signature=abc` },
    }));
    expect((await client.content.download(redirect, { maxBytes: 1024 })).toString()).toBe('moved bytes');
    expect(target.seen).toEqual([undefined]);
  });

  it('refuses a body over maxBytes, and the export says which setting to raise', async () => {
    const service = await startFileServer();
    const { client } = clientFor(service);
    const url = service.put('/files/big.bin', Buffer.alloc(4096, 1));
    expect((await client.content.download(url, { maxBytes: 4096 })).length).toBe(4096);
    const error = await failureOf(client.content.download(url, { maxBytes: 4095 }));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('API_RESPONSE_TOO_LARGE');

    const exported = await failureOf(
      downloadFile(client, url, 'file big.bin', {
        maxBytes: 100,
        timeoutMs: 5_000,
        signal: new AbortController().signal,
      }),
    );
    expect(exported).toBeInstanceOf(DocsyncError);
    expect((exported as DocsyncError).code).toBe('EXPORT_FILE_TOO_LARGE');
    expect((exported as DocsyncError).message).toContain('export.maxFileBytes');
  });

  it('retries a passing failure and reports every attempt under one route', async () => {
    const service = await startFileServer();
    const { client, attempts, sleeps } = clientFor(service);
    let calls = 0;
    const url = service.route('/files/flaky.bin', () => {
      calls += 1;
      return calls === 1 ? { status: 503, body: 'busy' } : { status: 200, body: 'at last' };
    });
    expect((await client.content.download(url, { maxBytes: 1024 })).toString()).toBe('at last');
    expect(sleeps).toHaveLength(1);
    expect(attempts.map((attempt) => [attempt.route, attempt.status])).toEqual([
      ['download', 503],
      ['download', 200],
    ]);
  });

  it('keeps the token and a signed address out of its errors', async () => {
    const service = await startFileServer();
    const { client } = clientFor(service);
    const url = service.route('/files/secret.png', (request) => ({
      status: 403,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        error: { code: 'forbidden', message: `refused ${request.headers.authorization}` },
      }),
    }));
    const signed = `${url}?X-Signature=s3cr3t-signature`;
    const error = await failureOf(client.content.download(signed, { maxBytes: 1024 }));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(403);
    const exported = await failureOf(
      downloadFile(client, signed, 'file secret.png', {
        maxBytes: 1024,
        timeoutMs: 5_000,
        signal: new AbortController().signal,
      }),
    );
    expect((exported as DocsyncError).code).toBe('EXPORT_DOWNLOAD_FAILED');
    expect((exported as DocsyncError).retryable).toBe(false);
    for (const shown of [error, exported]) {
      const text =
        JSON.stringify(shown, Object.getOwnPropertyNames(shown)) + String((shown as Error).message);
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain('s3cr3t-signature');
    }
    expect((exported as DocsyncError).message).toContain('/files/secret.png');
  });
});
