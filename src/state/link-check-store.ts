// The last link check of each target (a change request, or a space's main content), so the next
// check can say what broke and what was fixed, and /status can show it.
import { z } from 'zod';
import type { RedisClient } from '../redis/redis-connections.js';

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

/** What /status shows of a check: its counts, not the links themselves, which are not validated. */
const linkCheckSummarySchema = z.object({
  at: z.string(),
  revision: z.string(),
  broken: z.array(z.unknown()),
  stats: linkStatsSchema.optional(),
});

export interface LinkCheckSummary {
  at: string;
  revision: string;
  broken: number;
  /** All links of the target, when the record has the service's stats. */
  total?: number;
}

const KEEP_SECONDS = 30 * 24 * 3600;

export class LinkCheckStore {
  readonly #redis: RedisClient;
  readonly #prefix: string;

  constructor(redis: RedisClient, prefix: string) {
    this.#redis = redis;
    this.#prefix = prefix;
  }

  keyOf(space: string, changeRequest: string | undefined): string {
    return `${this.#prefix}:state:links:${space}:${changeRequest ?? 'main'}`;
  }

  async get(space: string, changeRequest: string | undefined): Promise<LinkCheck | undefined> {
    const text = await this.#redis.get(this.keyOf(space, changeRequest));
    if (text === null) return undefined;
    const parsed = linkCheckSchema.safeParse(JSON.parse(text));
    // An unreadable record is treated as no previous check: the next one starts afresh.
    return parsed.success ? parsed.data : undefined;
  }

  /** The last check of a target in short; undefined when there is none, or it cannot be read. */
  async summary(space: string, changeRequest: string | undefined): Promise<LinkCheckSummary | undefined> {
    const text = await this.#redis.get(this.keyOf(space, changeRequest));
    if (text === null) return undefined;
    let parsed: ReturnType<typeof linkCheckSummarySchema.safeParse>;
    try {
      parsed = linkCheckSummarySchema.safeParse(JSON.parse(text));
    } catch {
      return undefined;
    }
    if (!parsed.success) return undefined;
    const { at, revision, broken, stats } = parsed.data;
    return { at, revision, broken: broken.length, ...(stats === undefined ? {} : { total: stats.total }) };
  }

  async set(space: string, changeRequest: string | undefined, check: LinkCheck): Promise<void> {
    await this.#redis.set(this.keyOf(space, changeRequest), JSON.stringify(check), 'EX', KEEP_SECONDS);
  }
}
