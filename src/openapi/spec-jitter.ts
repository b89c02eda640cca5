// A spec's jitter: a delay in [0, jitter) derived from its name, the same in every process and on
// every tick, so that a hundred specs on one schedule spread over the window and each keeps a
// steady period.
import { createHash } from 'node:crypto';

export function jitterOf(key: string, jitterMs: number): number {
  if (jitterMs <= 0) return 0;
  const digest = createHash('sha256').update(key).digest();
  return digest.readUInt32BE(0) % Math.floor(jitterMs);
}
