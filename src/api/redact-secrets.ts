// Secrets (the API token) scrubbed from any text that may become an error message or a log field,
// such as a message the service echoes back.

const REDACTED = '[redacted]';

/** `text` with every occurrence of each secret replaced; secrets shorter than 4 characters are ignored. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  return out;
}
