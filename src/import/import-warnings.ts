// The warnings of an import (see ContentWarning) where people see them: one log line each, up to a
// cap, so that a folder with hundreds of unlisted pages does not flood the log; and the first ones
// with the count of all, for the state, /status and the job's stored result. The daemon's log is
// where people read them (warn); `docsync once` prints them in its report, and logs them at info.
import type { ContentWarning } from '../content/content-warning.js';
import type { Logger } from '../log/create-logger.js';
import { MAX_STORED_WARNINGS } from '../state/mapping-state.js';

/** Warning lines logged per import; the rest are counted in one line. */
export const MAX_LOGGED_WARNINGS = 20;

/** The level of the warnings' lines: `warn` where the log is what people read, `info` beside a report. */
export type WarningLogLevel = 'warn' | 'info';

/** Logs each of the first `max` warnings at `level` with its place and code, then how many more. */
export function logImportWarnings(
  log: Logger,
  warnings: readonly ContentWarning[],
  max = MAX_LOGGED_WARNINGS,
  level: WarningLogLevel = 'warn',
): void {
  for (const warning of warnings.slice(0, max)) {
    log[level](
      {
        code: warning.code,
        file: warning.file,
        ...(warning.line === undefined ? {} : { line: warning.line }),
        detail: warning.message,
      },
      'docs folder warning',
    );
  }
  if (warnings.length > max) {
    log[level]({ notLogged: warnings.length - max, count: warnings.length }, 'more docs folder warnings');
  }
}

/** `warnings` as state keeps them: the first MAX_STORED_WARNINGS and the count of all; nothing when none. */
export function storedWarnings(warnings: readonly ContentWarning[] | undefined): {
  warnings?: ContentWarning[];
  warningCount?: number;
} {
  if (warnings === undefined || warnings.length === 0) return {};
  return { warnings: warnings.slice(0, MAX_STORED_WARNINGS), warningCount: warnings.length };
}
