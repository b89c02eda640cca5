// The bytes of a file of a space, through the service client's download (its token only on the
// service's own origin, retries, metrics, redaction), with the export's own errors: a file over
// the mapping's cap says which setting to raise, any other failure is a failed download.

import { isApiError } from '../api/api-error.js';
import type { DocsApiClient } from '../api/docs-api-client.js';
import { DocsyncError } from '../errors/docsync-error.js';

export interface DownloadOptions {
  maxBytes: number;
  timeoutMs: number;
  signal: AbortSignal;
}

export async function downloadFile(
  api: Pick<DocsApiClient, 'content'>,
  url: string,
  label: string,
  options: DownloadOptions,
): Promise<Buffer> {
  try {
    return await api.content.download(url, options);
  } catch (error) {
    if (options.signal.aborted || !isApiError(error)) throw error;
    if (error.code === 'API_RESPONSE_TOO_LARGE')
      throw new DocsyncError(
        'EXPORT_FILE_TOO_LARGE',
        `${label} (${error.path}) is larger than ${options.maxBytes} bytes: raise export.maxFileBytes of the mapping to export it`,
        { cause: error },
      );
    throw new DocsyncError('EXPORT_DOWNLOAD_FAILED', `${label}: ${error.message}`, {
      retryable: error.retryable,
      cause: error,
    });
  }
}
