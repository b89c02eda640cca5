// Secrets (the API token) scrubbed from any text that may become an error message or a log field,
// such as a message the service echoes back.
import { redactUrlCredentials } from '../log/redact-url-credentials.js';

const REDACTED = '[redacted]';

/** Query strings of addresses: signed bundle addresses carry their signature there. */
const URL_QUERY = /(\bhttps?:\/\/[^\s?#"']+)\?[^\s#"']*/gi;

/**
 * `text` with every occurrence of each secret replaced (secrets shorter than 4 characters are
 * ignored), and the query string of any address dropped: a message echoing a signed bundle
 * address must not hand its signature to a log. Credentials anywhere else in an address (user
 * information, secret parameters of a relative one) are hidden as every log hides them.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  return redactUrlCredentials(out.replace(URL_QUERY, `$1?${REDACTED}`));
}
