// Secrets (the API token) scrubbed from any text that may become an error message or a log field,
// such as a message the service echoes back.

const REDACTED = '[redacted]';

/** Query strings of addresses: signed bundle addresses carry their signature there. */
const URL_QUERY = /(\bhttps?:\/\/[^\s?#"']+)\?[^\s#"']*/gi;

/**
 * `text` with every occurrence of each secret replaced (secrets shorter than 4 characters are
 * ignored), and the query string of any address dropped: a message echoing a signed bundle
 * address must not hand its signature to a log.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  return out.replace(URL_QUERY, `$1?${REDACTED}`);
}
