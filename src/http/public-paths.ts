// The addresses that stay open when `http.token` is set: the liveness probe, and the two that
// callers without docsync's token must reach and that carry their own proof instead (the push
// webhook its HMAC or GitLab token, an artifact address its signature).
import { ARTIFACT_ID_PATTERN } from '../artifacts/artifact-signature.js';

const PUBLIC_PATHS: ReadonlySet<string> = new Set(['/healthz', '/hooks/git']);
// One segment of id characters exactly: `/artifacts/../status` and the like stay closed.
const ARTIFACT_PATH = new RegExp(`^/artifacts/${ARTIFACT_ID_PATTERN}$`);

/** Whether a request URL (path and query, as `request.url` gives it) may skip the bearer token. */
export function isPublicPath(url: string): boolean {
  const path = url.split('?', 1)[0] ?? '';
  return PUBLIC_PATHS.has(path) || ARTIFACT_PATH.test(path);
}
