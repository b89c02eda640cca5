// The last link check of each target (a change request, or a space's main content), so the next
// check can say what broke and what was fixed, and /status can show it: the record, and the store
// every version (Redis for the daemon, memory for tests and `docsync once`) keeps it in.
import { z } from 'zod';

/**
 * A broken link as stored (src/links/broken-link.ts): its page and target, and where it is written in
 * git. The place is optional: records written before it was kept, and links not found in git, lack it.
 */
export const brokenLinkSchema = z.object({
  pageId: z.string(),
  pageTitle: z.string(),
  pagePath: z.string().optional(),
  target: z.string(),
  sourcePath: z.string().optional(),
  noGitFile: z.boolean().optional(),
  file: z.string().optional(),
  line: z.int().positive().optional(),
  column: z.int().positive().optional(),
});

export type StoredBrokenLink = z.infer<typeof brokenLinkSchema>;

/** Broken links /status lists per target; `broken` counts them all. */
export const BROKEN_LINKS_LISTED = 50;

/** The service's counts, as it gives them: all links, broken ones, and (change requests) those it adds. */
const linkStatsSchema = z.object({
  total: z.number(),
  broken: z.object({ total: z.number(), changeRequest: z.number().optional() }),
});

export type LinkStats = z.infer<typeof linkStatsSchema>;

export const linkCheckSchema = z.object({
  at: z.string(),
  revision: z.string(),
  broken: z.array(brokenLinkSchema),
  /** Optional: records written before stats were kept have none. */
  stats: linkStatsSchema.optional(),
});

export type LinkCheck = z.infer<typeof linkCheckSchema>;

/**
 * What a poll and a merge read of a target's last check: the revision it saw and how many of its
 * links were broken. Kept beside the record, so that reading it never parses the broken links.
 */
export const checkedRevisionSchema = z.object({ revision: z.string(), broken: z.int().nonnegative() });

export type CheckedRevision = z.infer<typeof checkedRevisionSchema>;

/** A stored record's revision and count of broken links; undefined when it does not read back. */
export function checkedRevisionOf(value: unknown): CheckedRevision | undefined {
  const parsed = storedRevisionSchema.safeParse(value);
  return parsed.success ? { revision: parsed.data.revision, broken: parsed.data.broken.length } : undefined;
}

/** Of a record, what checkedRevisionOf needs, the links uncounted as they are. */
const storedRevisionSchema = z.object({ revision: z.string(), broken: z.array(z.unknown()) });

/** What /status reads of a stored check: each link on its own, so one unreadable link costs only itself. */
const storedSummarySchema = linkCheckSchema.extend({ broken: z.array(z.unknown()) });

/** A check in short, as /status shows it. */
export const linkCheckSummarySchema = z.object({
  at: z.string(),
  revision: z.string(),
  broken: z.number(),
  /** All links of the target, when the record has the service's stats. */
  total: z.number().optional(),
  /** The first BROKEN_LINKS_LISTED broken links, with their place in git when known (absent from older daemons). */
  links: z.array(brokenLinkSchema).default([]),
});

export type LinkCheckSummary = z.infer<typeof linkCheckSummarySchema>;

/** One record per target; `changeRequest` undefined is the space's main content. */
export interface LinkCheckStore {
  get(space: string, changeRequest: string | undefined): Promise<LinkCheck | undefined>;
  /**
   * The revision and broken link count of the last check of many targets of one space, in one read (a
   * poll's), in the order asked; undefined where there is no check, or it cannot be read.
   */
  checkedRevisions(
    space: string,
    changeRequests: readonly (string | undefined)[],
  ): Promise<(CheckedRevision | undefined)[]>;
  /** The last check of a target in short; undefined when there is none, or it cannot be read. */
  summary(space: string, changeRequest: string | undefined): Promise<LinkCheckSummary | undefined>;
  set(space: string, changeRequest: string | undefined, check: LinkCheck): Promise<void>;
}

/** A stored record in short, as /status shows it; undefined when it does not read back. */
export function summaryOfLinkCheck(value: unknown): LinkCheckSummary | undefined {
  const parsed = storedSummarySchema.safeParse(value);
  if (!parsed.success) return undefined;
  const { at, revision, broken, stats } = parsed.data;
  // Read only as many as are listed: a check may hold thousands, and /status is read every few seconds.
  const links: LinkCheck['broken'] = [];
  for (const link of broken) {
    if (links.length === BROKEN_LINKS_LISTED) break;
    const read = brokenLinkSchema.safeParse(link);
    if (read.success) links.push(read.data);
  }
  return {
    at,
    revision,
    broken: broken.length,
    ...(stats === undefined ? {} : { total: stats.total }),
    links,
  };
}
