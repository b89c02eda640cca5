// The root pino logger: JSON lines on stdout (or pretty lines for people), with secrets redacted by
// key path and credentials hidden in any URL of a written line (redacting-destination.ts), so that
// neither can reach a log.
import { type DestinationStream, type Logger, pino, stdSerializers } from 'pino';
import type { LOG_LEVELS } from './log-levels.js';
import { redactingDestination } from './redacting-destination.js';

export type LogLevel = (typeof LOG_LEVELS)[number];
export type { Logger };

const SECRET_KEYS = [
  'token',
  'authorization',
  'password',
  'secret',
  'webhookSecret',
  'artifactSecret',
  'gitlabToken',
  'apiKey',
  'cookie',
  'signature',
];

/** Paths pino censors: the secret keys at the top and up to three levels down, and request headers. */
export const REDACT_PATHS = [
  ...SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`, `*.*.*.${key}`]),
  'headers["x-hub-signature-256"]',
  '*.headers["x-hub-signature-256"]',
  'headers["x-gitlab-token"]',
  '*.headers["x-gitlab-token"]',
];

export interface LoggerOptions {
  level: LogLevel;
  /** Where lines go; stdout when not given. A pino-pretty stream for `--log-format pretty`. */
  destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: { err: stdSerializers.err, error: stdSerializers.err },
      formatters: { level: (label) => ({ level: label }) },
    },
    redactingDestination(options.destination ?? pino.destination({ dest: 1, sync: true })),
  );
}
