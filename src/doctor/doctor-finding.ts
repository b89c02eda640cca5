// What one check of `docsync doctor` found: a status, a sentence, and for anything short of ok a
// hint saying what to do. Findings are plain data: the command prints them, `docsync start` logs them.
import type { ErrorCode } from '../errors/error-codes.js';
import type { DoctorCode } from './doctor-codes.js';

export const FINDING_STATUSES = ['ok', 'warn', 'fail', 'skip'] as const;

/** `skip`: not checked because a check it depends on failed (that one already says why). */
export type FindingStatus = (typeof FINDING_STATUSES)[number];

export const CHECK_KINDS = [
  'config',
  'redis',
  'redis-version',
  'redis-memory-policy',
  'service',
  'space',
  'repository',
  'repository-push',
  'watch-path',
  'openapi',
  'artifacts',
] as const;

export type CheckKind = (typeof CHECK_KINDS)[number];

export interface Finding {
  check: CheckKind;
  /** What was checked, when the kind has several: a mapping's name, `org/slug` of a spec. */
  subject?: string;
  status: FindingStatus;
  message: string;
  /** What to do about it; given for `warn` and `fail`. */
  hint?: string;
  code?: ErrorCode | DoctorCode;
  /** Further lines shown as they are: git's whole error text, the problems of a document. */
  details?: readonly string[];
}

/** The label a finding is printed and logged under: `space docs`, `openapi acme/petstore`. */
export function findingLabel(finding: Pick<Finding, 'check' | 'subject'>): string {
  return finding.subject === undefined ? finding.check : `${finding.check} ${finding.subject}`;
}

export function ok(check: CheckKind, subject: string | undefined, message: string): Finding {
  return { check, ...(subject === undefined ? {} : { subject }), status: 'ok', message };
}

export function skipped(check: CheckKind, subject: string | undefined, because: string): Finding {
  return {
    check,
    ...(subject === undefined ? {} : { subject }),
    status: 'skip',
    message: `not checked: ${because}`,
  };
}

export interface Problem {
  code: ErrorCode | DoctorCode;
  message: string;
  hint: string;
  details?: readonly string[];
}

export function failed(check: CheckKind, subject: string | undefined, problem: Problem): Finding {
  return { check, ...(subject === undefined ? {} : { subject }), status: 'fail', ...problem };
}

export function warned(check: CheckKind, subject: string | undefined, problem: Problem): Finding {
  return { check, ...(subject === undefined ? {} : { subject }), status: 'warn', ...problem };
}
