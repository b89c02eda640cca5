// Verdicts in Redis: one hash per mapping, a field per change request, read back through zod.
// Each poll replaces them, and most polls find what the last one found: then only the time of the
// poll is written. The hash keeps a digest of the verdicts (their content without the time) and
// the time of the last poll that confirmed them (fields `:digest` and `:at`, names no change
// request id has). A poll sends its digest and time first, and a script writes the time only
// while the digest holds (whichever process wrote it); otherwise the poll writes the verdicts whole.
import { hash } from 'node:crypto';
import type { RedisClient } from '../redis/redis-connections.js';
import { type ScriptCommand, scriptCommand } from '../redis/script-command.js';
import { parseStoredJson, RedisStateStore } from './redis-state-store.js';
import { byNumber, type StoredVerdict, type VerdictStore, verdictSchema } from './verdict-store.js';

const DIGEST_FIELD = ':digest';
const AT_FIELD = ':at';

/** KEYS[1]: the hash. ARGV: a change request, its verdict. Written, and the digest dropped. */
const SET_SCRIPT = `
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HDEL', KEYS[1], '${DIGEST_FIELD}')
return 1
`;

/** KEYS[1]: the hash. ARGV: the digest, the time. 1 when the digest held and the time was written. */
const CONFIRM_SCRIPT = `
if redis.call('HGET', KEYS[1], '${DIGEST_FIELD}') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], '${AT_FIELD}', ARGV[2])
return 1
`;

export class RedisVerdictStore extends RedisStateStore implements VerdictStore {
  readonly #confirm: ScriptCommand;
  readonly #set: ScriptCommand;

  constructor(redis: RedisClient, prefix: string) {
    super(redis, prefix);
    this.#confirm = scriptCommand(redis, 'docsyncVerdictsConfirm', CONFIRM_SCRIPT);
    this.#set = scriptCommand(redis, 'docsyncVerdictSet', SET_SCRIPT);
  }

  keyOf(mapping: string): string {
    return this.stateKey('verdicts', mapping);
  }

  async replace(mapping: string, verdicts: readonly StoredVerdict[]): Promise<void> {
    const key = this.keyOf(mapping);
    const at = verdicts[0]?.at;
    // Verdicts of one time (a poll's) are confirmed by their digest; others are written whole.
    const digest = verdicts.every((verdict) => verdict.at === at) ? digestOf(verdicts) : undefined;
    if (digest !== undefined && at !== undefined && (await this.#confirm(1, key, digest, at)) === 1) return;
    const multi = this.redis.multi().del(key);
    const fields = verdicts.flatMap((verdict) => [verdict.changeRequest, JSON.stringify(verdict)]);
    if (digest !== undefined) fields.push(DIGEST_FIELD, digest);
    if (at !== undefined) fields.push(AT_FIELD, at);
    if (fields.length > 0) multi.hset(key, ...fields);
    await multi.exec();
  }

  async set(mapping: string, verdict: StoredVerdict): Promise<void> {
    // The verdicts differ from the digest's now: the next poll writes them whole. A script, not a
    // transaction: on an auto-pipelined connection a transaction leaves at once, ahead of a poll's
    // confirm issued before it, which would then find no digest and write its older verdicts over.
    await this.#set(1, this.keyOf(mapping), verdict.changeRequest, JSON.stringify(verdict));
  }

  async list(mapping: string): Promise<StoredVerdict[]> {
    const fields = await this.redis.hgetall(this.keyOf(mapping));
    const confirmedAt = fields[AT_FIELD];
    return Object.entries(fields)
      .filter(([field]) => !field.startsWith(':'))
      .map(([, text]) => verdictSchema.safeParse(parseStoredJson(text)))
      .flatMap((parsed) => (parsed.success ? [parsed.data] : []))
      .map((verdict) =>
        // A verdict a later poll confirmed is as of that poll (ISO times sort as text).
        confirmedAt !== undefined && confirmedAt > verdict.at ? { ...verdict, at: confirmedAt } : verdict,
      )
      .sort(byNumber);
  }
}

/** The verdicts' content without their time, as a short hash (each poll computes it). */
function digestOf(verdicts: readonly StoredVerdict[]): string {
  let text = '';
  for (const verdict of verdicts)
    text += `${verdict.changeRequest} ${verdict.number} ${verdict.revision} ${verdict.mergeable} ${JSON.stringify(verdict.subject)} ${JSON.stringify(verdict.reasons)}\n`;
  return hash('sha1', text, 'base64url');
}
