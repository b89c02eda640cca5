// Credentials written into URLs (`https://user:token@host`, `redis://:password@host`) are hidden
// wherever a URL may travel into a log line or an error message.

const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi;

export function redactUrlCredentials(text: string): string {
  return text.includes('@') ? text.replace(URL_CREDENTIALS, '$1***@') : text;
}
