// Link checks in Redis: one key per target under the configured prefix, expiring after a month
// without a check, read back through zod. Beside each record, a short one of what polls and merges
// read (the revision checked, the count of broken links), so that they never parse the broken links
// themselves: a space's record lists every broken link of its content, and a poll reads the records
// of all its change requests. Many targets are read in one MGET (a cluster, where the keys may sit in
// different slots: their GETs sent together, one round trip per node).
import { Cluster } from 'ioredis';
import {
  type CheckedRevision,
  checkedRevisionOf,
  checkedRevisionSchema,
  type LinkCheck,
  type LinkCheckStore,
  type LinkCheckSummary,
  linkCheckSchema,
  summaryOfLinkCheck,
} from './link-check-store.js';
import { parseStoredJson, RedisStateStore } from './redis-state-store.js';

const KEEP_SECONDS = 30 * 24 * 3600;

export class RedisLinkCheckStore extends RedisStateStore implements LinkCheckStore {
  keyOf(space: string, changeRequest: string | undefined): string {
    return this.stateKey('links', space, changeRequest ?? 'main');
  }

  /** The short record beside the record (CheckedRevision). */
  checkedKeyOf(space: string, changeRequest: string | undefined): string {
    return this.stateKey('links-checked', space, changeRequest ?? 'main');
  }

  async get(space: string, changeRequest: string | undefined): Promise<LinkCheck | undefined> {
    return checkOf(await this.redis.get(this.keyOf(space, changeRequest)));
  }

  async checkedRevisions(
    space: string,
    changeRequests: readonly (string | undefined)[],
  ): Promise<(CheckedRevision | undefined)[]> {
    if (changeRequests.length === 0) return [];
    const short = await this.#readAll(changeRequests.map((cr) => this.checkedKeyOf(space, cr)));
    const answers = short.map(checkedOf);
    // No short record: a target never checked, or checked by a docsync that kept none (the record's
    // revision is read then, the links only counted).
    const unread = answers.flatMap((answer, index) => (answer === undefined ? [index] : []));
    if (unread.length === 0) return answers;
    const records = await this.#readAll(unread.map((index) => this.keyOf(space, changeRequests[index])));
    for (const [i, index] of unread.entries()) {
      const text = records[i];
      answers[index] =
        text === null || text === undefined ? undefined : checkedRevisionOf(parseStoredJson(text));
    }
    return answers;
  }

  async summary(space: string, changeRequest: string | undefined): Promise<LinkCheckSummary | undefined> {
    const text = await this.redis.get(this.keyOf(space, changeRequest));
    return text === null ? undefined : summaryOfLinkCheck(parseStoredJson(text));
  }

  async set(space: string, changeRequest: string | undefined, check: LinkCheck): Promise<void> {
    const checked: CheckedRevision = { revision: check.revision, broken: check.broken.length };
    // Sent together (one write on docsync's state connection), the record first: a reader finds the
    // short record of this check only once the record itself is there.
    await Promise.all([
      this.redis.set(this.keyOf(space, changeRequest), JSON.stringify(check), 'EX', KEEP_SECONDS),
      this.redis.set(this.checkedKeyOf(space, changeRequest), JSON.stringify(checked), 'EX', KEEP_SECONDS),
    ]);
  }

  async #readAll(keys: readonly string[]): Promise<(string | null)[]> {
    return this.redis instanceof Cluster
      ? Promise.all(keys.map((key) => this.redis.get(key)))
      : this.redis.mget(keys as string[]);
  }
}

function checkOf(text: string | null | undefined): LinkCheck | undefined {
  if (text === null || text === undefined) return undefined;
  const parsed = linkCheckSchema.safeParse(parseStoredJson(text));
  // An unreadable record is treated as no previous check: the next one starts afresh.
  return parsed.success ? parsed.data : undefined;
}

function checkedOf(text: string | null | undefined): CheckedRevision | undefined {
  if (text === null || text === undefined) return undefined;
  const parsed = checkedRevisionSchema.safeParse(parseStoredJson(text));
  return parsed.success ? parsed.data : undefined;
}
