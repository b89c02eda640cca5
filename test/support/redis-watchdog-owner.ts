// A process that owns a redis watchdog and does nothing else, for a test to kill with SIGKILL as a
// crash would. Run with `node --import tsx`; arguments: the pid to watch and the grace period in
// ms. Logs JSON lines on stdout ("redis watchdog started" carries the watchdog's pid).
import { z } from 'zod';
import { createLogger } from '../../src/log/create-logger.js';
import { startRedisWatchdog } from '../../src/redis/redis-watchdog.js';

const [redisPid, graceMs] = z
  .tuple([z.coerce.number().int().positive(), z.coerce.number().int().min(0)])
  .parse(process.argv.slice(2));
startRedisWatchdog({ redisPid, graceMs, log: createLogger({ level: 'info' }) });
// Stays alive until killed.
setInterval(() => {}, 60_000);
