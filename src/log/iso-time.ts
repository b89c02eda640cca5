// The time of a log line as pino's isoTime writes it (`,"time":"2026-11-28T21:47:49.061Z"`), made
// once per millisecond: a busy daemon writes several lines in one, and formatting a Date cost more
// than the rest of the timestamp's part of a line.

let lastMs = Number.NaN;
let lastField = '';

export function isoTime(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastField = `,"time":"${new Date(now).toISOString()}"`;
  }
  return lastField;
}
