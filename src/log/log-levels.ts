// The log levels docsync accepts, in their own module so the command line can offer them without
// loading the configuration schema.
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
