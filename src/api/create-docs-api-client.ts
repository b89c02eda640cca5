// The client as docsync starts it: from the validated `service` section of the configuration,
// with the logger and version of the running process.
import type { Config } from '../config/config-schema.js';
import { VERSION } from '../package-info.js';
import { DocsApiClient, type DocsApiClientOptions } from './docs-api-client.js';

export type ServiceConfig = NonNullable<Config['service']>;

/**
 * What the configuration does not give: logger, pool size, retry overrides, test hooks, and the
 * budget of service.rateLimit, which needs Redis: the daemon makes it (start-work.ts); `docsync
 * once`, `openapi upload` and `doctor` run without one.
 */
export type DocsApiClientExtras = Omit<DocsApiClientOptions, 'baseUrl' | 'token' | 'timeoutMs'>;

export function createDocsApiClient(service: ServiceConfig, extras: DocsApiClientExtras = {}): DocsApiClient {
  return new DocsApiClient({
    userAgent: `docsync/${VERSION}`,
    ...extras,
    baseUrl: service.baseUrl,
    token: service.token,
    timeoutMs: service.timeout,
  });
}
