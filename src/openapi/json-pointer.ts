// JSON pointers as `$ref`s write them: the fragment of a URI (RFC 6901 section 6), so a token like
// `/pets/{id}` becomes `~1pets~1%7Bid%7D`, a valid URI reference that validators accept as such.

/** Characters a URI fragment may hold as they are (RFC 3986: pchar, "/" and "?"). */
const FRAGMENT_SAFE = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/?]$/;

/** `#/a/b` for the tokens `a`, `b`: `~` and `/` escaped, then what a fragment may not hold percent-encoded. */
export function pointerRef(tokens: readonly string[]): string {
  let ref = '#';
  for (const token of tokens) ref += `/${encodeFragment(token.replace(/~/g, '~0').replace(/\//g, '~1'))}`;
  return ref;
}

function encodeFragment(text: string): string {
  let encoded = '';
  for (const char of text) encoded += FRAGMENT_SAFE.test(char) ? char : encodeURIComponent(char);
  return encoded;
}

/**
 * The tokens of a fragment (`/components/schemas/Pet`, without `#`), percent-decoded; undefined
 * when it is not a JSON pointer (a plain-name anchor) or its percent-encoding is broken.
 */
export function fragmentTokens(fragment: string): string[] | undefined {
  let pointer: string;
  try {
    pointer = decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The value at `tokens` under `root`, or `found: false`. */
export function valueAt(
  root: unknown,
  tokens: readonly string[],
): { found: true; value: unknown } | { found: false } {
  let node: unknown = root;
  for (const token of tokens) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(token) || Number(token) >= node.length) return { found: false };
      node = node[Number(token)];
    } else if (typeof node === 'object' && node !== null && Object.hasOwn(node, token)) {
      node = (node as Record<string, unknown>)[token];
    } else return { found: false };
  }
  return { found: true, value: node };
}
