// Times as people read them in a terminal or on the status page: `12s ago`, `in 3m`, `1h 30m`.

const UNITS = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1000],
] as const;

/** A duration in its two largest units: `1h 30m`, `45s`, `250ms`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return String(ms);
  if (ms === 0) return '0s';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const parts: string[] = [];
  let rest = Math.floor(ms / 1000) * 1000;
  for (const [unit, size] of UNITS) {
    if (rest >= size && parts.length < 2) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    } else if (parts.length > 0) break;
  }
  return parts.join(' ');
}

/** How long ago, or how long until, in the largest unit: `12s ago`, `in 3h`; the text itself if not a time. */
export function relativeTime(iso: string, now: Date): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const diff = at - now.getTime();
  const size = Math.abs(diff);
  if (size < 1000) return 'now';
  const [unit, unitMs] = UNITS.find(([, ms]) => size >= ms) ?? (['s', 1000] as const);
  const count = `${Math.floor(size / unitMs)}${unit}`;
  return diff < 0 ? `${count} ago` : `in ${count}`;
}
