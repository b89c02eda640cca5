import type { Logger } from '../log/create-logger.js';

/**
 * A write for people (state, events, a mapping's failures in a row) that fails is a warning,
 * never the job's outcome: the job's work is done or failed whatever /status shows of it.
 */
export async function bestEffort(log: Logger, message: string, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    log.warn({ err: error }, message);
  }
}
