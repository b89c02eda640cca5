// The bytes of a file of a space, from its download address: with the service's token only when
// the address is on the service's own origin (a CDN or storage address gets no credentials), a
// deadline, and a size cap, so that one huge attachment cannot exhaust the worker.
import { getGlobalDispatcher, interceptors, request } from 'undici';
import { readCappedBody } from '../api/read-capped-body.js';
import { DocsyncError } from '../errors/docsync-error.js';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';

const dispatcher = getGlobalDispatcher().compose(interceptors.redirect({ maxRedirections: 5 }));

export interface DownloadOptions {
  service: { baseUrl: string; token: string };
  maxBytes: number;
  timeoutMs: number;
  signal: AbortSignal;
}

export async function downloadFile(url: string, label: string, options: DownloadOptions): Promise<Buffer> {
  const sameOrigin = new URL(url).origin === new URL(options.service.baseUrl).origin;
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const shown = `${label} (${redactUrlCredentials(url)})`;
  try {
    const response = await request(url, {
      signal: AbortSignal.any([options.signal, deadline]),
      dispatcher,
      headers: sameOrigin ? { authorization: `Bearer ${options.service.token}` } : {},
    });
    response.body.on('error', () => {});
    if (response.statusCode < 200 || response.statusCode >= 300) {
      response.body.destroy();
      throw new DocsyncError('EXPORT_DOWNLOAD_FAILED', `${shown} answered HTTP ${response.statusCode}`, {
        retryable: response.statusCode >= 500 || response.statusCode === 429 || response.statusCode === 408,
      });
    }
    const bytes = await readCappedBody(response.body, options.maxBytes);
    if (bytes === undefined) {
      throw new DocsyncError(
        'EXPORT_FILE_TOO_LARGE',
        `${shown} is larger than ${options.maxBytes} bytes: raise export.maxFileBytes of the mapping to export it`,
      );
    }
    return bytes;
  } catch (error) {
    if (error instanceof DocsyncError || options.signal.aborted) throw error;
    throw new DocsyncError(
      'EXPORT_DOWNLOAD_FAILED',
      deadline.aborted
        ? `${shown}: no complete answer within ${options.timeoutMs} ms`
        : `${shown} could not be read`,
      { retryable: true, cause: error },
    );
  }
}
