// What happened, on the status page: recent events (change requests named by number, runs of the
// same event shown once with a count) and recent failures (the same job failing for the same reason
// shown once, "×3"); then the queue internals people rarely need (job ids, queue names, attempts,
// queue counts, next runs) folded away in a <details>. Pure.
import { changeRequestNumbers, eventText } from './event-text.js';
import { type Grouped, groupEvents, groupFailures } from './grouped-rows.js';
import { html, SafeHtml } from './html.js';
import { type At, listSection, row, section, styled, table, unavailable } from './page-markup.js';
import { schedulerName, scheduleText } from './schedule-text.js';
import type { EventAnswer, FailureAnswer, NextRunAnswer, StatusAnswer } from './status-answer-schema.js';
import { isPartError } from './status-answer-schema.js';

/** Rows shown of the long lists; /status has them all. */
export const PAGE_EVENTS = 30;
export const PAGE_FAILURES = 20;
export const PAGE_NEXT_RUNS = 20;

/** `×3`, after a row that stands for three. */
function times(group: Grouped<unknown>): SafeHtml | string {
  return group.count === 1 ? '' : html` ${styled('dim', `×${group.count}`)}`;
}

/** When the newest of a group happened, and since when it repeats. */
function when(group: Grouped<{ at: string }>, at: At): SafeHtml {
  return group.count === 1 ? at(group.newest.at) : html`${at(group.newest.at)} (first ${at(group.since)})`;
}

export function eventSection(status: Pick<StatusAnswer, 'events' | 'mappings'>, at: At): SafeHtml {
  const numbers = changeRequestNumbers(status.mappings);
  const part = status.events;
  return listSection(isPartError(part) || part === undefined ? part : groupEvents(part), {
    id: 'events',
    title: 'Recent events',
    none: 'Nothing yet.',
    limit: PAGE_EVENTS,
    headers: ['When', 'Mapping', 'What happened'],
    row: (group: Grouped<EventAnswer>) =>
      row(
        when(group, at),
        group.newest.mapping,
        html`${eventText(group.newest.summary, numbers)}${times(group)}`,
      ),
  });
}

export function failureSection(part: StatusAnswer['failures'], at: At): SafeHtml {
  if (part === undefined) return new SafeHtml('');
  if (isPartError(part)) return unavailable('failures', 'Recent failures', part);
  if (part.length === 0) return section('failures', 'Recent failures', html`<p>None.</p>`);
  const groups = groupFailures(part).slice(0, PAGE_FAILURES);
  return section(
    'failures',
    'Recent failures',
    table(
      ['When', 'Job', 'Why'],
      groups.map((group) =>
        row(
          when(group, at),
          html`${group.newest.name}${times(group)}`,
          styled('bad', group.newest.failedReason),
        ),
      ),
    ),
    part.length,
  );
}

/** Job ids, queues, attempts, counts and schedules: folded, for whoever runs docsync. */
export function queueInternals(status: StatusAnswer, at: At): SafeHtml {
  return html`<details id="queue-internals">
<summary>Queue internals: job ids, queues, attempts, next runs</summary>
${failedJobSection(status.failures, at)}
${queueSection(status.queues)}
${nextRunSection(status.nextRuns, at)}
</details>`;
}

function failedJobSection(part: StatusAnswer['failures'], at: At): SafeHtml {
  return listSection(part, {
    id: 'failed-jobs',
    title: 'Failed jobs',
    none: 'None.',
    limit: PAGE_FAILURES,
    counted: true,
    headers: ['When', 'Queue', 'Job', 'Job id', 'Attempts', 'Reason'],
    row: (failure: FailureAnswer) =>
      row(
        at(failure.at),
        failure.queue,
        failure.name,
        html`<code>${failure.id}</code>`,
        String(failure.attemptsMade),
        styled('bad', failure.failedReason),
      ),
  });
}

function queueSection(part: StatusAnswer['queues']): SafeHtml {
  if (isPartError(part)) return unavailable('queues', 'Queues', part);
  const entries = Object.entries(part);
  const states = [...new Set(entries.flatMap(([, counts]) => Object.keys(counts)))];
  return section(
    'queues',
    'Queues',
    table(
      ['Queue', ...states],
      entries.map(([queue, counts]) =>
        row(
          queue,
          ...states.map((state) => {
            const count = counts[state] ?? 0;
            return state === 'failed' && count > 0 ? styled('bad', String(count)) : String(count);
          }),
        ),
      ),
      'counts',
    ),
  );
}

function nextRunSection(part: StatusAnswer['nextRuns'], at: At): SafeHtml {
  return listSection(part, {
    id: 'next-runs',
    title: 'Next runs',
    none: 'None scheduled.',
    limit: PAGE_NEXT_RUNS,
    headers: ['When', 'Queue', 'Scheduler', 'Schedule'],
    row: (run: NextRunAnswer) => row(at(run.next), run.queue, schedulerName(run.key), scheduleText(run)),
  });
}
