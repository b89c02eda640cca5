// What the service holds of a spec: its latest version, when it was made, and the document in it.
// Read when docsync has no record of its last upload (Redis lost it, or a new Redis), so that the
// content already uploaded is found again instead of being uploaded twice.
import { ApiError } from '../api/api-error.js';
import type { DocsApiClient } from '../api/docs-api-client.js';
import { versionContentDocument } from './version-content-document.js';

export interface LatestVersion {
  version: string;
  createdAt: string | undefined;
  /** Undefined when the content holds no document docsync can read (see versionContentDocument). */
  document: Record<string, unknown> | undefined;
}

/** The spec's latest version, or undefined when the service has no such spec or no version of it. */
export async function readLatestVersion(
  api: DocsApiClient,
  org: string,
  slug: string,
  signal: AbortSignal,
): Promise<LatestVersion | undefined> {
  try {
    const spec = await api.openapi.get(org, slug, { signal });
    const id = spec.lastVersion;
    if (id === undefined) return undefined;
    // By id, not `latest`: the version and its content are the same one even if an upload lands now.
    const [version, content] = await Promise.all([
      api.openapi.getVersion(org, slug, id, { signal }),
      api.openapi.getVersionContent(org, slug, id, { signal }),
    ]);
    return { version: version.id, createdAt: version.createdAt, document: versionContentDocument(content) };
  } catch (error) {
    if (error instanceof ApiError && error.hasStatus(404)) return undefined;
    throw error;
  }
}
