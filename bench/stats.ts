// Small helpers to print benchmark figures the same way everywhere.

export function summarize(samplesMs: readonly number[]): {
  median: number;
  p95: number;
  min: number;
  max: number;
} {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { median: at(0.5), p95: at(0.95), min: sorted[0] ?? Number.NaN, max: sorted.at(-1) ?? Number.NaN };
}

/** The middle value (the upper one of an even count), as benches pair and compare runs. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

export function report(label: string, figures: Record<string, number | string>): void {
  const text = Object.entries(figures)
    .map(([key, value]) => `${key}=${typeof value === 'number' ? Number(value.toFixed(2)) : value}`)
    .join('  ');
  process.stdout.write(`${label.padEnd(40)} ${text}\n`);
}
