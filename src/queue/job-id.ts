// A job's id says what it does to what (`update/space_1/cr_9/rev_3`), so that the same work enqueued
// twice is one job while it waits or runs (docs/architecture.md lists them). BullMQ 6 refuses ':' in
// custom ids (it keeps ':' for its own key layout), so the parts are joined with '/' and each part
// is percent-encoded.
export function jobId(kind: string, ...parts: readonly (string | number)[]): string {
  return [kind, ...parts.map((part) => encodeURIComponent(String(part)))].join('/');
}

/**
 * The id of the same work queued again after its job finished (failed, or completed): the work's id
 * and when, such as `import/docs/<sha>/rerun-20250101T120000.000Z`. The finished job keeps its own id,
 * so people can still read why it failed.
 */
export function rerunJobId(workId: string, at: Date): string {
  return `${workId}/rerun-${at.toISOString().replace(/[-:]/g, '')}`;
}
