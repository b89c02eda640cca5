// Query parameters as the service reads them: undefined values left out, arrays as repeated keys
// (`authors=a&authors=b`), booleans and numbers as text.

export type QueryValue = string | number | boolean | readonly string[] | undefined;

export type Query = Readonly<Record<string, QueryValue>>;

/** `?a=1&b=x` or the empty string when nothing is set. */
export function buildQueryString(query: Query | undefined): string {
  if (query === undefined) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (typeof value === 'object') for (const item of value) params.append(key, item);
    else params.append(key, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
