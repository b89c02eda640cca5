// The unit of work a job's outcome counts toward, as /status and the health states show it: a
// mapping, or an OpenAPI spec (with what triggered its refresh). A kind names it from its payload
// (JobKindSpec.countsToward); the daemon's recorder keeps it (src/state/record-outcome.ts).

export type WorkUnit = { mapping: string } | { openapi: { org: string; slug: string; trigger: string } };

/** How one unit's work ended: failed with its error, or went through (ending its failures in a row). */
export type UnitOutcome = { failed: unknown } | { succeeded: true };
