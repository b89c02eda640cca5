// Runs a piece of work while sampling this process's resident memory every SAMPLE_MS: its wall
// time, the RSS before it, and the peak while it ran. `highWater` also takes the kernel's
// high-water mark, which catches a peak between two samples but covers the whole life of the
// process: for the first work of a fresh process only. `collectFirst` starts the work from a
// collected heap, so that garbage left by the work before it (another cycle, its floor) is not
// counted as this work's peak, nor freed during it to this work's credit.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const MIB = 1024 * 1024;
const SAMPLE_MS = 20;

let gc: (() => void) | undefined;

/** How long V8's background threads get to give the collected pages back to the system. */
const SETTLE_MS = 250;

/**
 * A full garbage collection (V8's `gc`, exposed to this process on the first call), then a moment
 * for the freed pages to leave the resident set: the RSS read after it is the live memory's.
 */
export async function collectGarbage(): Promise<void> {
  if (gc === undefined) {
    // `node --expose-gc` gives it; otherwise the flag is set now, which Node does not promise to
    // honour after startup, and read from a new context, where V8 installs it.
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (exposed !== undefined) gc = exposed;
    else {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as () => void;
    }
  }
  gc();
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  gc();
}

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
  options: { highWater?: boolean; collectFirst?: boolean } = {},
): Promise<MemoryMeasured<T>> {
  if (options.collectFirst === true) await collectGarbage();
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
