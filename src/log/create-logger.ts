// The root pino logger: JSON lines on stdout (or pretty lines for people). Each line passes
// redacting-destination.ts before it is written: the values of secret keys (at any depth) and the
// credentials in any URL are hidden there, so that neither can reach a log.
import { type DestinationStream, type Logger, pino, stdSerializers } from 'pino';
import { isoTime } from './iso-time.js';
import type { LOG_LEVELS } from './log-levels.js';
import { redactingDestination } from './redacting-destination.js';

export type LogLevel = (typeof LOG_LEVELS)[number];
export type { Logger };

export interface LoggerOptions {
  level: LogLevel;
  /** Where lines go; stdout when not given. A pino-pretty stream for `--log-format pretty`. */
  destination?: DestinationStream;
}

/**
 * Redaction by key (redact-secret-keys.ts) reads the compact JSON pino writes (`"key":value`, no
 * spaces, keys unescaped): a custom `stringify` or `formatters.log` here must keep that form.
 */
export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level,
      base: { pid: process.pid },
      timestamp: isoTime,
      serializers: { err: stdSerializers.err, error: stdSerializers.err },
      formatters: { level: (label) => ({ level: label }) },
    },
    redactingDestination(options.destination ?? pino.destination({ dest: 1, sync: true })),
  );
}
