// Retry-After as the service may send it: delay-seconds (`120`) or an HTTP date
// (`Wed, 21 Oct 2015 07:28:00 GMT`), turned into milliseconds from now.

/** Milliseconds to wait, or undefined when the header is absent or unreadable. Never negative. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // A date needs letters (a weekday or month); this keeps numbers like `1.5` from parsing as dates.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
