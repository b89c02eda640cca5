// A MONITOR connection to the server of a test's Redis client, safe from a race of ioredis: it
// takes a connection for monitoring only once MONITOR's OK has been handled, a promise later, so a
// line of another client's command that arrives in the same read is taken for a reply to no
// command and emitted as a "Command queue state error". Such a line comes before the monitor has
// started, when no test reads what it sees: that error alone is let pass. (`events.once` would not
// do: it rejects on any 'error' emitted while it waits, this one included.)
import type { Redis } from 'ioredis';

const BEFORE_MONITORING = /^Command queue state error/;

/** A connection in monitoring mode; the caller disconnects it. */
export async function monitorRedis(redis: Redis): Promise<Redis> {
  const monitor = redis.duplicate({ monitor: true, lazyConnect: true });
  let started = false;
  let failStart: (error: Error) => void = () => {};
  const monitoring = new Promise<void>((resolve, reject) => {
    failStart = reject;
    monitor.once('monitoring', () => {
      started = true;
      resolve();
    });
  });
  monitor.on('error', (error: Error) => {
    if (BEFORE_MONITORING.test(error.message)) return;
    if (!started) failStart(error);
    else throw error;
  });
  await Promise.all([monitor.connect(), monitoring]);
  return monitor;
}
