// Redis that cannot save its snapshot (its disk full or read-only) refuses every write, and PING,
// with a MISCONF error while `stop-writes-on-bgsave-error` holds: it answers, but docsync can do
// nothing. /readyz and the status say so in those words, not as a Redis that does not answer.

/** What /readyz and the status say of a Redis that refuses writes. */
export const WRITES_REFUSED_REASON = 'redis refuses writes: disk full';

/** Whether `error` is Redis's refusal to write: the reply's error code, its first word, is MISCONF. */
export function isWriteRefusal(error: unknown): boolean {
  return error instanceof Error && /^MISCONF\b/.test(error.message);
}

/**
 * How Redis takes writes now, asked with a PING (refused as writes are): `refused`, or `ok` when it
 * answers; a Redis that does not answer rejects, for the caller's own handling.
 */
export async function redisWrites(redis: { ping(): Promise<unknown> }): Promise<'ok' | 'refused'> {
  try {
    await redis.ping();
    return 'ok';
  } catch (error) {
    if (isWriteRefusal(error)) return 'refused';
    throw error;
  }
}
