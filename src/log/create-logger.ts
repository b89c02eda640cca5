// The root pino logger: JSON lines on stdout (or pretty lines for people), with secrets redacted by
// key path and credentials stripped from any URL, so that neither can reach a log.
import { type DestinationStream, type Logger, pino, stdSerializers } from 'pino';
import type { LOG_LEVELS } from '../config/config-schema.js';
import { redactUrlCredentials } from './redact-url-credentials.js';

export type LogLevel = (typeof LOG_LEVELS)[number];
export type { Logger };

const SECRET_KEYS = ['token', 'authorization', 'password', 'secret', 'webhookSecret', 'apiKey', 'cookie'];

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
      serializers: { err: serializeError, error: serializeError },
      formatters: { level: (label) => ({ level: label }), log: stripUrlCredentials },
    },
    options.destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

function serializeError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const serialized = stdSerializers.err(error) as unknown as Record<string, unknown>;
  return stripUrlCredentials(serialized);
}

/** Strings up to two levels deep lose any credentials written in a URL. */
function stripUrlCredentials(object: Record<string, unknown>, depth = 0): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(object)) {
    let clean = value;
    if (typeof value === 'string') clean = redactUrlCredentials(value);
    else if (depth < 2 && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      clean = stripUrlCredentials(value as Record<string, unknown>, depth + 1);
    }
    if (clean !== value) {
      copy ??= { ...object };
      copy[key] = clean;
    }
  }
  return copy ?? object;
}
