// Loads the text of an OpenAPI source address within the local service's limits.
import type { EmulatorLimits } from './emulator-context.js';
import { fetchSource } from './fetch-source.js';

export type FetchedText = { ok: true; text: string } | { ok: false; code: 'FETCH_TIMEOUT' | 'FETCH_ERROR' };

export async function fetchOpenApiText(
  url: string,
  limits: Pick<EmulatorLimits, 'fetchMaxBytes' | 'fetchTimeoutMs'>,
): Promise<FetchedText> {
  const fetched = await fetchSource(
    url,
    limits,
    'application/json, application/yaml, text/yaml, text/plain, */*',
  );
  return fetched.ok ? { ok: true, text: fetched.bytes.toString('utf8') } : { ok: false, code: fetched.code };
}
