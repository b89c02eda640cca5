// Which mapping a push is about: a push names its repository by several URLs (https, ssh, scp-like,
// web page) and a mapping names it by one, written by hand. Both are reduced to `host/path` and
// compared. Pure.

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;
// `[user@]host:path` as git reads it: no scheme, and no slash before the first colon.
const SCP_LIKE = /^(?:[^@/]+@)?(\[[^\]]+\]|[^:/]+):(.+)$/;
const WINDOWS_DRIVE = /^[a-z]:[\\/]/i;

/**
 * `host/owner/repo` for any way of writing a git remote: scheme, credentials, port, trailing `.git`
 * and slashes dropped, lower-cased. The case of the path goes too: the hosts that send webhooks
 * treat owner and repository names without case, and a false match only costs one extra poll while
 * a missed one delays an import until the next poll. Local paths keep their path. Undefined for
 * text that is not a remote.
 */
export function normalizeGitUrl(remote: string): string | undefined {
  const text = remote.trim();
  if (text === '' || /\s/.test(text)) return undefined;
  const scheme = SCHEME.exec(text)?.[1]?.toLowerCase();
  if (scheme === 'file') return pathKey(text.slice('file://'.length));
  if (scheme !== undefined) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return undefined;
    }
    if (url.hostname === '') return undefined;
    return joinKey(url.hostname, decodePath(url.pathname));
  }
  if (WINDOWS_DRIVE.test(text) || text.startsWith('/') || text.startsWith('.')) return pathKey(text);
  const scp = SCP_LIKE.exec(text);
  if (scp?.[1] !== undefined && scp[2] !== undefined) {
    return joinKey(scp[1], scp[2]);
  }
  return pathKey(text);
}

/** Whether the mapping's `git.repo` is one of the repository URLs a push names. */
export function matchesRepository(mappingRepo: string, urls: readonly string[]): boolean {
  const wanted = normalizeGitUrl(mappingRepo);
  if (wanted === undefined) return false;
  return urls.some((url) => normalizeGitUrl(url) === wanted);
}

function joinKey(host: string, path: string): string | undefined {
  const trimmed = trimPath(path);
  if (trimmed === '') return undefined;
  return `${host.toLowerCase().replace(/\.$/, '')}/${trimmed}`;
}

function pathKey(path: string): string | undefined {
  const trimmed = trimPath(path.replaceAll('\\', '/'));
  return trimmed === '' ? undefined : `/${trimmed}`;
}

/** `/Owner//Repo.git/` → `owner/repo`. */
function trimPath(path: string): string {
  return path
    .replace(/\/{2,}/g, '/')
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.git$/i, '')
    .replace(/\/+$/, '')
    .toLowerCase();
}

function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
