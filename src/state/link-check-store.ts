// The last link check of each target (a change request, or a space's main content), so the next
// check can say what broke and what was fixed, and /status can show it: the record, and the store
// every version (Redis for the daemon, memory for tests and `docsync once`) keeps it in.
import { z } from 'zod';

const brokenLinkSchema = z.object({
  pageId: z.string(),
  pageTitle: z.string(),
  pagePath: z.string().optional(),
  target: z.string(),
});

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

/** What /status reads of a stored check: its counts, not the links themselves, which are not validated. */
const storedSummarySchema = linkCheckSchema.extend({ broken: z.array(z.unknown()) });

/** A check in short, as /status shows it. */
export const linkCheckSummarySchema = z.object({
  at: z.string(),
  revision: z.string(),
  broken: z.number(),
  /** All links of the target, when the record has the service's stats. */
  total: z.number().optional(),
});

export type LinkCheckSummary = z.infer<typeof linkCheckSummarySchema>;

/** One record per target; `changeRequest` undefined is the space's main content. */
export interface LinkCheckStore {
  get(space: string, changeRequest: string | undefined): Promise<LinkCheck | undefined>;
  /** The records of many targets of one space in one read (a poll's), in the order asked, as `get` reads each. */
  getMany(space: string, changeRequests: readonly (string | undefined)[]): Promise<(LinkCheck | undefined)[]>;
  /** The last check of a target in short; undefined when there is none, or it cannot be read. */
  summary(space: string, changeRequest: string | undefined): Promise<LinkCheckSummary | undefined>;
  set(space: string, changeRequest: string | undefined, check: LinkCheck): Promise<void>;
}

/** A stored record in short, as /status shows it; undefined when it does not read back. */
export function summaryOfLinkCheck(value: unknown): LinkCheckSummary | undefined {
  const parsed = storedSummarySchema.safeParse(value);
  if (!parsed.success) return undefined;
  const { at, revision, broken, stats } = parsed.data;
  return { at, revision, broken: broken.length, ...(stats === undefined ? {} : { total: stats.total }) };
}
