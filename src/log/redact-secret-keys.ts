// Secrets by key: in a JSON log line, the value of every key that names a secret (a token, an
// authorization header, a password...) is replaced whole by "[redacted]", at any depth, in fields,
// child bindings and serialized errors alike. One pass over the finished line: pino's own `redact`
// (key paths with wildcards, up to three levels) cost about 35 µs for a job's child logger and outcome
// line, a third of all the CPU a no-op job cost the process.

import { REDACTED_VALUE } from './redact-url-credentials.js';

/** The keys whose values are secrets, compared without case. */
export const SECRET_KEYS = [
  'token',
  'authorization',
  'password',
  'secret',
  'webhookSecret',
  'artifactSecret',
  'gitlabToken',
  'apiKey',
  'cookie',
  'signature',
  'accessToken',
  'access_token',
  'refreshToken',
  'refresh_token',
  'clientSecret',
  'client_secret',
  'privateKey',
  'private_key',
  'proxy-authorization',
  'set-cookie',
  'x-hub-signature-256',
  'x-gitlab-token',
] as const;

/** A secret key as JSON writes it: quoted, then a colon (a line from pino has no spaces there). */
const SECRET_KEY = new RegExp(`"(?:${SECRET_KEYS.join('|')})":`, 'i');
const SECRET_KEYS_GLOBAL = new RegExp(SECRET_KEY.source, 'gi');
const CENSORED = JSON.stringify(REDACTED_VALUE);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

/**
 * `line` (one JSON document, such as a pino line) with the value of each secret key replaced by
 * "[redacted]". A key is a quoted name right after `{` or `,`: inside a JSON string every quote is
 * escaped, so text that only looks like a key, within a value, is never taken for one.
 */
export function redactSecretKeys(line: string): string {
  if (!SECRET_KEY.test(line)) return line;
  let out = '';
  let copied = 0;
  SECRET_KEYS_GLOBAL.lastIndex = 0;
  for (let match = SECRET_KEYS_GLOBAL.exec(line); match !== null; match = SECRET_KEYS_GLOBAL.exec(line)) {
    const before = line.charCodeAt(match.index - 1);
    if (before !== OPEN_BRACE && before !== COMMA) continue;
    const start = match.index + match[0].length;
    const end = valueEnd(line, start);
    out += line.slice(copied, start) + CENSORED;
    copied = end;
    SECRET_KEYS_GLOBAL.lastIndex = end;
  }
  return copied === 0 ? line : out + line.slice(copied);
}

/** Where the JSON value starting at `start` ends: a string, an object or array whole, or a literal. */
function valueEnd(text: string, start: number): number {
  let depth = 0;
  let i = start;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      i = stringEnd(text, i);
      if (depth === 0) return i;
      continue;
    }
    if (code === OPEN_BRACE || code === OPEN_BRACKET) depth += 1;
    else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      if (depth === 0) return i;
      depth -= 1;
      if (depth === 0) return i + 1;
    } else if (code === COMMA && depth === 0) return i;
    i += 1;
  }
  return text.length;
}

/** Just past the closing quote of the string whose opening quote is at `start`. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === BACKSLASH) i += 2;
    else if (code === QUOTE) return i + 1;
    else i += 1;
  }
  return text.length;
}
