// A job's id says what it does to what (`update/space_1/cr_9/rev_3`), so that the same work enqueued
// twice is one job (docs/architecture.md lists them). BullMQ 6 refuses ':' in custom ids (it keeps ':'
// for its own key layout), so the parts are joined with '/' and each part is percent-encoded.
export function jobId(kind: string, ...parts: readonly (string | number)[]): string {
  return [kind, ...parts.map((part) => encodeURIComponent(String(part)))].join('/');
}
