// What docsync did lately, for people: one line per job that changed something (an import, a merge,
// a link check, an upload, an export), newest first, shared by every process through Redis and
// capped, so that it never grows. The status page and /status show it; logs remain the full record.
import { z } from 'zod';

export const eventSchema = z.object({
  at: z.string(),
  queue: z.string(),
  /** The job's name: `import-content`, `merge-change-request`... */
  job: z.string(),
  /** The job's outcome word, as in its log line: `imported`, `merged`, `clean`... */
  result: z.string(),
  /** One sentence for people: "merged change request #3". */
  summary: z.string(),
  mapping: z.string().optional(),
  space: z.string().optional(),
});

export type DocsyncEvent = z.infer<typeof eventSchema>;

/** How many events Redis keeps; the status page shows the newest of them. */
export const EVENTS_KEPT = 200;
export const RECENT_EVENTS = 30;

export interface EventLog {
  /** Adds an event; the oldest beyond EVENTS_KEPT go. */
  record(event: DocsyncEvent): Promise<void>;
  /** The newest events first; an entry that does not read back as an event is left out. */
  recent(limit?: number): Promise<DocsyncEvent[]>;
}

/** A stored entry as an event, or undefined when it does not read back as one. */
export function readEvent(value: unknown): DocsyncEvent | undefined {
  const parsed = eventSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
