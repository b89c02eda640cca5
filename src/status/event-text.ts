// An event's sentence for people: the event log names some change requests by the service's id
// ("checked the links of change request cr_x2Ty…"), which says nothing to a writer; the status page
// and `docsync status` name those they know by number instead ("change request #4"). Pure.
import { isPartError, type StatusAnswer } from './status-answer-schema.js';

/** Change request id → number, from everything /status says of the mappings. */
export function changeRequestNumbers(mappings: StatusAnswer['mappings']): ReadonlyMap<string, number> {
  const numbers = new Map<string, number>();
  if (isPartError(mappings)) return numbers;
  for (const mapping of mappings) {
    const imported = mapping.lastImport?.changeRequest;
    if (imported !== undefined) numbers.set(imported.id, imported.number);
    const merged = mapping.lastMerge?.changeRequest;
    if (merged !== undefined) numbers.set(merged.id, merged.number);
    for (const verdict of mapping.changeRequests) numbers.set(verdict.changeRequest, verdict.number);
    for (const check of mapping.linkChecks)
      if (check.number !== undefined) numbers.set(check.target, check.number);
  }
  return numbers;
}

const CHANGE_REQUEST_ID = /\bchange request ([A-Za-z0-9_-]+)/g;

/** The sentence with each change request id it names replaced by `#number`, when known. */
export function eventText(summary: string, numbers: ReadonlyMap<string, number>): string {
  return summary.replace(CHANGE_REQUEST_ID, (whole, id: string) => {
    const number = numbers.get(id);
    return number === undefined ? whole : `change request #${number}`;
  });
}
