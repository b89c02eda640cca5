// Codes of what `docsync doctor` (and the checks `docsync start` runs) can find that is not an
// error docsync raises elsewhere; findings that come from such an error carry its own code
// (src/errors/error-codes.ts).

export const DOCTOR_CODES = {
  CHECK_TIMEOUT: 'a check did not finish within its time limit (docsync doctor --timeout)',
  CHECK_FAILED: 'a check failed in a way it does not recognise: the message says more',
  REDIS_EVICTION_POLICY: 'Redis may evict keys under memory pressure (maxmemory-policy is not noeviction)',
  SERVICE_TOKEN_REFUSED: 'the documentation service refused service.token (401 or 403)',
  SERVICE_UNREACHABLE: 'the documentation service could not be reached at service.baseUrl',
  SERVICE_NO_ORGANIZATION: 'the token belongs to no organization of the service, so it sees no space',
  SERVICE_ERROR: 'the documentation service answered with an error the check did not expect',
  SPACE_NOT_FOUND: 'the space of a mapping does not exist, or the token cannot see it',
  SPACE_NOT_WRITABLE: 'the token may not change the space of a mapping as its direction needs',
  SPACE_PERMISSIONS_UNKNOWN: 'the service did not say what the token may do with a space',
  WATCH_PATH_MISSING: 'the working copy of a mapping (git.watch.path), or its docs folder in it, is missing',
} as const satisfies Record<string, string>;

export type DoctorCode = keyof typeof DOCTOR_CODES;
