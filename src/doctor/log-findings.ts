// The doctor's findings as `docsync start` logs them: one line per check, info when it passed and a
// warning with its code and hint when not, then one line with the counts. Static messages; what was
// found is in the fields.
import type { Logger } from '../log/create-logger.js';
import type { Finding, FindingStatus } from './doctor-finding.js';

const MESSAGES: Readonly<Record<FindingStatus, string>> = {
  ok: 'startup check passed',
  warn: 'startup check warning',
  fail: 'startup check failed',
  skip: 'startup check skipped',
};

export function logFindings(findings: readonly Finding[], log: Logger): void {
  const counts: Record<FindingStatus, number> = { ok: 0, warn: 0, fail: 0, skip: 0 };
  for (const finding of findings) {
    counts[finding.status] += 1;
    const fields = {
      check: finding.check,
      ...(finding.subject === undefined ? {} : { subject: finding.subject }),
      detail: finding.message,
      ...(finding.code === undefined ? {} : { code: finding.code }),
      ...(finding.hint === undefined ? {} : { hint: finding.hint }),
      ...(finding.details === undefined ? {} : { details: finding.details }),
    };
    if (finding.status === 'warn' || finding.status === 'fail') log.warn(fields, MESSAGES[finding.status]);
    else log.info(fields, MESSAGES[finding.status]);
  }
  log.info(
    { passed: counts.ok, warnings: counts.warn, failed: counts.fail, skipped: counts.skip },
    'startup checks done',
  );
}
