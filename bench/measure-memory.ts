// Runs a piece of work while sampling this process's resident memory every SAMPLE_MS: its wall
// time, the RSS before it, and the peak while it ran. `highWater` also takes the kernel's
// high-water mark, which catches a peak between two samples but covers the whole life of the
// process: for the first work of a fresh process only.

const MIB = 1024 * 1024;
const SAMPLE_MS = 20;

export interface MemoryMeasured<T> {
  value: T;
  seconds: number;
  startRssMiB: number;
  peakRssMiB: number;
  /** The peak above the RSS before the work. */
  rssAboveMiB: number;
}

export async function measureMemory<T>(
  work: () => Promise<T>,
  options: { highWater?: boolean } = {},
): Promise<MemoryMeasured<T>> {
  const base = process.memoryUsage.rss();
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, SAMPLE_MS);
  const started = performance.now();
  try {
    const value = await work();
    const seconds = (performance.now() - started) / 1000;
    peak = Math.max(
      peak,
      process.memoryUsage.rss(),
      options.highWater === true ? process.resourceUsage().maxRSS * 1024 : 0,
    );
    return {
      value,
      seconds,
      startRssMiB: base / MIB,
      peakRssMiB: peak / MIB,
      rssAboveMiB: (peak - base) / MIB,
    };
  } finally {
    clearInterval(timer);
  }
}
