// Where the events of `notify:` come from, without the jobs knowing: the stores every job already
// writes to, wrapped. A merge or a conflict branch is an event of the event log; newly broken links
// are a link check's broken links that its target's last check did not have; a mapping is failing
// when one job's failures in a row reach `health.failingAfter`, and recovered when that job next
// succeeds. The wrapped write happens first and is the job's; telling about it never fails it.
import { createHash } from 'node:crypto';
import type { DocsyncEvent, EventLog } from '../state/event-log.js';
import type { LinkCheck, LinkCheckStore, StoredBrokenLink } from '../state/link-check-store.js';
import type { MappingStateStore } from '../state/mapping-state.js';
import type { Stores } from '../state/stores.js';
import { NOTIFIED_LINKS, type NotificationEvent } from './notification-event.js';
import type { NotifyEventKind } from './notify-config-schema.js';
import type { Notify } from './queue-notification.js';

export interface NotifyingStoresOptions {
  notify: Notify;
  /** The kinds some webhook wants: the others cost no read. */
  wanted: ReadonlySet<NotifyEventKind>;
  failingAfter: number;
  /** Which mapping a space belongs to, for the link checks (which know only their space). */
  mappingOfSpace: (space: string) => string | undefined;
  now: () => Date;
}

export function notifyingStores(stores: Stores, options: NotifyingStoresOptions): Stores {
  return {
    ...stores,
    events: notifyingEvents(stores.events, options),
    links: notifyingLinks(stores.links, options),
    mappings: notifyingMappings(stores.mappings, options),
  };
}

/** The event log's events that are notifications: a merge, and a conflict branch of an export. */
const LOGGED_KINDS: Readonly<Record<string, NotifyEventKind>> = {
  'merge-change-request/merged': 'merged',
  'export-space/conflict': 'conflict',
};

function notifyingEvents(events: EventLog, options: NotifyingStoresOptions): EventLog {
  return {
    recent: (limit) => events.recent(limit),
    async record(event: DocsyncEvent) {
      await events.record(event);
      const kind = LOGGED_KINDS[`${event.job}/${event.result}`];
      if (kind === undefined || !options.wanted.has(kind)) return;
      await options.notify({
        kind,
        key: `${kind}/${event.space ?? event.mapping ?? '-'}/${digest(event.summary)}`,
        at: event.at,
        summary: event.summary,
        job: event.job,
        ...(event.mapping === undefined ? {} : { mapping: event.mapping }),
        ...(event.space === undefined ? {} : { space: event.space }),
      });
    },
  };
}

function notifyingLinks(links: LinkCheckStore, options: NotifyingStoresOptions): LinkCheckStore {
  if (!options.wanted.has('broken-links')) return links;
  return {
    get: (space, changeRequest) => links.get(space, changeRequest),
    checkedRevisions: (space, changeRequests) => links.checkedRevisions(space, changeRequests),
    summary: (space, changeRequest) => links.summary(space, changeRequest),
    async set(space, changeRequest, check) {
      const before = await links.get(space, changeRequest);
      await links.set(space, changeRequest, check);
      const known = new Set((before?.broken ?? []).map(linkKey));
      const newly = check.broken.filter((link) => !known.has(linkKey(link)));
      if (newly.length === 0) return;
      const mapping = options.mappingOfSpace(space);
      await options.notify(brokenLinksEvent(space, changeRequest, check, newly, mapping));
    },
  };
}

function brokenLinksEvent(
  space: string,
  changeRequest: string | undefined,
  check: LinkCheck,
  newly: readonly StoredBrokenLink[],
  mapping: string | undefined,
): NotificationEvent {
  const target = changeRequest === undefined ? 'the main content' : `change request ${changeRequest}`;
  const count = newly.length === 1 ? '1 newly broken link' : `${newly.length} newly broken links`;
  return {
    kind: 'broken-links',
    key: `broken-links/${space}/${changeRequest ?? 'main'}/${check.revision}`,
    at: check.at,
    summary: `${count} in ${target}`,
    space,
    ...(mapping === undefined ? {} : { mapping }),
    newlyBroken: newly.length,
    links: newly.slice(0, NOTIFIED_LINKS).map((link) => ({
      target: link.target,
      page: link.pagePath ?? link.pageTitle,
      ...(link.file === undefined ? {} : { file: link.file }),
      ...(link.line === undefined ? {} : { line: link.line }),
    })),
  };
}

function notifyingMappings(mappings: MappingStateStore, options: NotifyingStoresOptions): MappingStateStore {
  const failing = options.wanted.has('failing');
  const recovered = options.wanted.has('recovered');
  if (!failing && !recovered) return mappings;
  const wrapped: MappingStateStore = {
    get: (mapping) => mappings.get(mapping),
    update: (mapping, patch) => mappings.update(mapping, patch),
    recordFailure: (mapping, job, failure) => mappings.recordFailure(mapping, job, failure),
    recordSuccess: (mapping, job) => mappings.recordSuccess(mapping, job),
    recordRevisionOrigin: (space, revision, origin) => mappings.recordRevisionOrigin(space, revision, origin),
    revisionOrigin: (space, revision) => mappings.revisionOrigin(space, revision),
    trackedChangeRequests: (mapping) => mappings.trackedChangeRequests(mapping),
    trackChangeRequest: (mapping, id, sha) => mappings.trackChangeRequest(mapping, id, sha),
    settleChangeRequest: (mapping, id) => mappings.settleChangeRequest(mapping, id),
  };
  wrapped.recordFailure = async (mapping, job, failure) => {
    await mappings.recordFailure(mapping, job, failure);
    if (!failing) return;
    const run = (await mappings.get(mapping)).failures?.[job];
    if (run === undefined || run.count !== options.failingAfter) return;
    await options.notify({
      kind: 'failing',
      key: `failing/${mapping}/${job}/${run.since}`,
      at: failure.at,
      summary: `${job} failed ${run.count} times in a row (${failure.code}): ${failure.message}`,
      mapping,
      job,
      code: failure.code,
      ...(failure.hint === undefined ? {} : { hint: failure.hint }),
    });
  };
  wrapped.recordSuccess = async (mapping, job) => {
    const run = recovered ? (await mappings.get(mapping)).failures?.[job] : undefined;
    await mappings.recordSuccess(mapping, job);
    if (run === undefined || run.count < options.failingAfter) return;
    await options.notify({
      kind: 'recovered',
      key: `recovered/${mapping}/${job}/${run.since}`,
      at: options.now().toISOString(),
      summary: `${job} works again after ${run.count} failures in a row since ${run.since}`,
      mapping,
      job,
    });
  };
  return wrapped;
}

function linkKey(link: StoredBrokenLink): string {
  return `${link.pageId}\n${link.target}`;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}
