// What docsync's exit code tells a script or a CI pipeline.
export const EXIT = {
  ok: 0,
  /** Something failed while running. */
  failure: 1,
  /** Docsync could not start: bad usage, an invalid configuration, or a missing or unusable dependency. */
  invalid: 2,
  /** `docsync openapi diff --fail-on-breaking` found changes that break clients. */
  breaking: 4,
} as const;
