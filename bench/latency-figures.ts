// Percentiles of latency samples, as the crash soak prints them: count, p50, p95, p99 and max.
export function latencyFigures(samplesMs: readonly number[]): Record<string, number | string> {
  if (samplesMs.length === 0) return { n: 0 };
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
  return { n: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted.at(-1) ?? Number.NaN };
}
