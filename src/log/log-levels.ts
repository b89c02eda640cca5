// The log levels docsync accepts, in their own module so the command line can offer them without
// loading the configuration schema.
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

export function isLogLevel(text: string): text is (typeof LOG_LEVELS)[number] {
  return (LOG_LEVELS as readonly string[]).includes(text);
}
