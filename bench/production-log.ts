// docsync's own logger (src/log/create-logger.ts: its redaction included) at production's level,
// writing as `docsync start` writes to its stdout, synchronously, but where nobody reads it: a
// benchmark pays for its logs what the daemon pays.
import { pino } from 'pino';
import { createLogger, type Logger } from '../src/log/create-logger.js';

export function productionLog(): Logger {
  return createLogger({ level: 'info', destination: pino.destination({ dest: '/dev/null', sync: true }) });
}
