// Sizes docsync proposes for the config (import.skipFilesOver): a round value people would write,
// chosen within a range where every value means the same, and written so the config reads it back.
const KIB = 1024;
const MIB = 1024 * KIB;
const GIB = 1024 * MIB;

// The step a size is rounded to, by its magnitude (about two significant figures in binary units):
// 448 KiB, 1.5 MiB, 12.75 MiB, 20 MiB, 1.25 GiB. When no multiple of it falls in the range, a finer
// one is taken, down to a byte.
const STEPS = [GIB / 4, MIB, MIB / 4, 16 * KIB, KIB, 1] as const;

function stepFor(bytes: number): number {
  if (bytes >= GIB) return GIB / 4;
  if (bytes >= 16 * MIB) return MIB;
  if (bytes >= MIB) return MIB / 4;
  return 16 * KIB;
}

/**
 * The largest round size in `[least, most]` by the steps above, at least 1 (the config takes no 0);
 * undefined when `most` is under 1 or under `least`.
 */
export function roundDownReadable(least: number, most: number): number | undefined {
  const floor = Math.max(least, 1);
  if (most < floor) return undefined;
  const first = stepFor(most);
  for (const step of STEPS) {
    if (step > first) continue;
    const rounded = Math.floor(most / step) * step;
    if (rounded >= floor) return rounded;
  }
  return undefined;
}

/**
 * `bytes` as written in the config: `1.5MiB`, `448KiB`, `1.25GiB`, or a whole number of bytes when
 * no unit gives it exactly (parseByteSize reads each back to `bytes`).
 */
export function configSize(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', GIB],
    ['MiB', MIB],
  ] as const) {
    if (bytes >= size && bytes % (size / 4) === 0) return `${bytes / size}${unit}`;
  }
  if (bytes >= KIB && bytes % KIB === 0) return `${bytes / KIB}KiB`;
  return String(bytes);
}
