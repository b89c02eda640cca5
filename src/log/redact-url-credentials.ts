// Credentials written into URLs are hidden wherever a URL may travel into a log line, an error
// message, /status or Redis: the user information (`https://user:token@host`, `redis://:password@host`)
// and the values of query parameters that carry a secret (`?token=...`, `&X-Amz-Signature=...`). The
// parameter names stay visible, so a reader can still tell what was there.

export const REDACTED_VALUE = '[redacted]';

const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^/?#\s]+@/gi;

/**
 * Words that make a query parameter a secret when its name is one of them or ends with one,
 * compared without case: `token`, `access_token`, `X-Amz-Security-Token`, `apiKey`, `client_secret`.
 */
export const SECRET_PARAMETER_WORDS = [
  'token',
  'key',
  'sig',
  'signature',
  'password',
  'passwd',
  'pwd',
  'secret',
  'auth',
  'credential',
  'credentials',
] as const;

/** A parameter after `?`, `&`, `;` or `#` (OAuth puts tokens in the fragment): name and value. */
const QUERY_PARAMETER = /([?&;#])([A-Za-z0-9_.~%[\]-]+)=([^&#\s"'`<>\\]*)/g;

export function redactUrlCredentials(text: string): string {
  let out = text.includes('@') ? text.replace(URL_USERINFO, '$1***@') : text;
  if (out.includes('=')) {
    out = out.replace(QUERY_PARAMETER, (match, separator: string, name: string, value: string) =>
      value !== '' && isSecretParameter(name) ? `${separator}${name}=${REDACTED_VALUE}` : match,
    );
  }
  return out;
}

/** Whether a query parameter's name says its value is a secret. */
export function isSecretParameter(name: string): boolean {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name);
  } catch {
    // A malformed escape: judge the name as written.
  }
  const lower = decoded.toLowerCase();
  return SECRET_PARAMETER_WORDS.some((word) => lower.endsWith(word));
}
