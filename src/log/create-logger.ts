// The root pino logger: JSON lines on stdout (or pretty lines for people), with secrets redacted by
// key path and credentials stripped from any URL, so that neither can reach a log.
import { type DestinationStream, type Logger, pino, stdSerializers } from 'pino';
import type { LOG_LEVELS } from './log-levels.js';
import { redactUrlCredentials } from './redact-url-credentials.js';

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
      serializers: { err: serializeError, error: serializeError },
      formatters: { level: (label) => ({ level: label }), log: stripUrlCredentials },
    },
    options.destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

function serializeError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  return stripUrlCredentials(stdSerializers.err(error));
}

/** Strings in fields, lists and nested objects (up to four levels) lose any credentials written in a URL. */
function stripUrlCredentials<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return redactUrlCredentials(value) as T;
  if (depth >= 4 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const cleaned = value.map((item: unknown) => stripUrlCredentials(item, depth + 1));
    return (cleaned.some((item, i) => item !== value[i]) ? cleaned : value) as T;
  }
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const clean = stripUrlCredentials(item, depth + 1);
    if (clean !== item) {
      copy ??= { ...(value as Record<string, unknown>) };
      copy[key] = clean;
    }
  }
  return (copy ?? value) as T;
}
