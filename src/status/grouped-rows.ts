// Repeated rows shown once with a count, so that one job failing the same way twenty times reads as
// one line "×20" on the status page and in `docsync status`: identical failures (same job, same
// reason), and runs of identical events in a row. Pure.
import type { EventAnswer, FailureAnswer } from './status-answer-schema.js';

export interface Grouped<T> {
  /** The newest of the group (lists come newest first). */
  newest: T;
  count: number;
  /** When the oldest of the group happened. */
  since: string;
  items: T[];
}

/** Failures of the same job for the same reason, wherever they are in the list, newest first. */
export function groupFailures(failures: readonly FailureAnswer[]): Grouped<FailureAnswer>[] {
  const groups = new Map<string, Grouped<FailureAnswer>>();
  for (const failure of failures) {
    const key = JSON.stringify([failure.name, failure.failedReason]);
    const group = groups.get(key);
    if (group === undefined)
      groups.set(key, { newest: failure, count: 1, since: failure.at, items: [failure] });
    else {
      group.count += 1;
      group.since = failure.at;
      group.items.push(failure);
    }
  }
  return [...groups.values()];
}

/** Events in a row that say the same of the same mapping: a check that finds nothing new each hour. */
export function groupEvents(events: readonly EventAnswer[]): Grouped<EventAnswer>[] {
  const groups: Grouped<EventAnswer>[] = [];
  for (const event of events) {
    const last = groups.at(-1);
    if (
      last !== undefined &&
      last.newest.summary === event.summary &&
      last.newest.mapping === event.mapping
    ) {
      last.count += 1;
      last.since = event.at;
      last.items.push(event);
    } else groups.push({ newest: event, count: 1, since: event.at, items: [event] });
  }
  return groups;
}
