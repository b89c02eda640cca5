// The Redis checks: reachable, its version, its `maxmemory-policy`. With no Redis configured,
// `docsync start` runs its own redis-server: then the one a running docsync keeps in the data
// folder is checked, or else that a redis-server is on PATH to be started.
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Cluster } from 'ioredis';
import { pino } from 'pino';
import type { Config } from '../config/config-schema.js';
import type { Env } from '../config/interpolate-env.js';
import { EnvironmentError } from '../errors/environment-error.js';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';
import { isAtLeast, MIN_REDIS_VERSION, parseInfo } from '../redis/check-redis-server.js';
import { REDIS_MISSING_HINT, runningEmbeddedRedis } from '../redis/embedded-redis-server.js';
import { type RedisClient, RedisConnections, type RedisTarget } from '../redis/redis-connections.js';
import { type RedisMode, readRedisTarget } from '../redis/redis-target.js';
import { redisWrites, WRITES_REFUSED_REASON } from '../redis/redis-write-refusal.js';
import { type CheckRunner, CheckTimeoutError, formatSeconds } from './check-runner.js';
import type { NameSource } from './config-sources.js';
import { describeFailure } from './describe-failure.js';
import { type Finding, failed, ok, skipped, warned } from './doctor-finding.js';

const run = promisify(execFile);

/** What Redis answers to a missing or wrong password (AUTH, or HELLO of Redis 6+). */
const AUTH_REFUSED = /NOAUTH|WRONGPASS|invalid password|invalid username-password/i;

class RedisAuthError extends Error {}

/** BullMQ refuses older servers; it recommends MIN_REDIS_VERSION, which docsync requires. */
export const BULLMQ_MIN_REDIS_VERSION = [5, 0, 0] as const;
const MIN = MIN_REDIS_VERSION.join('.');

export interface RedisCheckInput {
  config: Config;
  runner: CheckRunner;
  names: NameSource;
  cwd: string;
  env: Env;
}

interface ServerFacts {
  version: string;
  maxmemoryPolicy: string | undefined;
  /** `refused`: its disk is full (MISCONF), it answers but takes no write. */
  writes: 'ok' | 'refused';
}

export async function checkRedis(input: RedisCheckInput): Promise<Finding[]> {
  const { config } = input;
  let configured: RedisTarget | undefined;
  try {
    configured = await readRedisTarget(config.redis, input.cwd);
  } catch (error) {
    if (!(error instanceof EnvironmentError)) throw error;
    return [
      failed('redis', undefined, { code: error.code, message: error.message, hint: 'check redis.tls' }),
      skipped('redis-version', undefined, 'Redis was not asked'),
      skipped('redis-memory-policy', undefined, 'Redis was not asked'),
    ];
  }
  if (configured !== undefined) return probe(input, configured, 'configured');
  const dir = join(resolve(input.cwd, config.dataDir), 'redis');
  const running = await runningEmbeddedRedis(dir);
  if (running !== undefined) return probe(input, { url: running }, 'embedded');
  return checkRedisServerProgram(input);
}

async function probe(
  input: RedisCheckInput,
  target: RedisTarget,
  kind: 'configured' | 'embedded',
): Promise<Finding[]> {
  const connections = new RedisConnections(target, pino({ level: 'silent' }));
  const where = connections.description;
  let lastError: string | undefined;
  const attempt = await input.runner.attempt(async (signal) => {
    const client = connections.producer();
    try {
      await readyOrRefused(client, signal, (message) => {
        lastError = redactUrlCredentials(message);
      });
      return await readFacts(client);
    } finally {
      await connections.close();
    }
  });
  if (!attempt.ok) {
    const setting =
      'url' in target
        ? kind === 'embedded'
          ? `the embedded redis-server of the docsync running in ${input.config.dataDir}`
          : input.names(['redis', 'url'])
        : connections.mode === 'cluster'
          ? 'redis.cluster.nodes'
          : 'redis.sentinel';
    const auth = attempt.error instanceof RedisAuthError ? attempt.error : undefined;
    return [
      failed('redis', undefined, {
        code: 'REDIS_UNREACHABLE',
        message:
          auth !== undefined
            ? `${where} refused the credentials (${auth.message})`
            : attempt.error instanceof CheckTimeoutError
              ? `${where} did not answer within ${formatSeconds(input.runner.timeoutMs)}`
              : `${where}: ${describeFailure(attempt.error)}`,
        hint:
          auth !== undefined
            ? `check the user and password in ${setting}`
            : `check ${setting} and that Redis runs there`,
        ...(lastError === undefined || auth !== undefined ? {} : { details: [`last error: ${lastError}`] }),
      }),
      skipped('redis-version', undefined, 'Redis did not answer'),
      skipped('redis-memory-policy', undefined, 'Redis did not answer'),
    ];
  }
  const facts = attempt.value;
  if (facts.some((fact) => fact.writes === 'refused')) {
    return [
      failed('redis', undefined, {
        code: 'REDIS_WRITES_REFUSED',
        message: `${where} answers but ${WRITES_REFUSED_REASON.replace(/^redis /, '')} (MISCONF: its last snapshot could not be saved)`,
        hint: 'free space on the disk of its dir (CONFIG GET dir), or make it writable; writes come back once a save succeeds',
      }),
      versionFinding(facts),
      policyFinding(facts),
    ];
  }
  const reached = ok(
    'redis',
    undefined,
    kind === 'embedded'
      ? `${where} answers: the embedded redis-server of the docsync running in ${input.config.dataDir}`
      : `${where} answers (${modeOf(connections.mode, facts.length)})`,
  );
  return [reached, versionFinding(facts), policyFinding(facts)];
}

/** Which way docsync reached Redis, for the finding. */
function modeOf(mode: RedisMode, nodes: number): string {
  if (mode === 'cluster') return `Redis Cluster, ${nodes} master(s)`;
  if (mode === 'sentinel') return 'Sentinel, connected to the primary it names';
  return 'one server';
}

/**
 * Resolves once the client is ready; rejects when Redis refuses the password (ioredis would keep
 * reconnecting: that answer is final) or when the check's signal fires (its time limit).
 */
function readyOrRefused(
  client: RedisClient,
  signal: AbortSignal,
  onError: (message: string) => void,
): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const done = () => {
      client.removeListener('ready', onReady);
      client.removeListener('error', onFailure);
      signal.removeEventListener('abort', onAbort);
    };
    const onReady = () => {
      done();
      resolve();
    };
    const onFailure = (error: Error) => {
      onError(error.message);
      if (!AUTH_REFUSED.test(error.message)) return;
      done();
      reject(new RedisAuthError(redactUrlCredentials(error.message)));
    };
    const onAbort = () => {
      done();
      reject(signal.reason);
    };
    client.on('ready', onReady);
    client.on('error', onFailure);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Every node that holds data (each master of a cluster). */
async function readFacts(client: RedisClient): Promise<ServerFacts[]> {
  const nodes = client instanceof Cluster ? client.nodes('master') : [client];
  return Promise.all(
    nodes.map(async (node) => {
      const server = parseInfo(await node.info('server'));
      const memory = parseInfo(await node.info('memory'));
      return {
        version: server.get('redis_version') ?? '0.0.0',
        maxmemoryPolicy: memory.get('maxmemory_policy'),
        writes: await redisWrites(node),
      };
    }),
  );
}

export function versionFinding(facts: readonly Pick<ServerFacts, 'version'>[]): Finding {
  const versions = [...new Set(facts.map((fact) => fact.version))];
  const tooOld = versions.filter((version) => !isAtLeast(version, MIN_REDIS_VERSION));
  const shown = versions.join(', ');
  if (tooOld.length === 0)
    return ok('redis-version', undefined, `Redis ${shown} (docsync needs ${MIN} or newer)`);
  const refusedByBullmq = tooOld.some((version) => !isAtLeast(version, BULLMQ_MIN_REDIS_VERSION));
  return failed('redis-version', undefined, {
    code: 'REDIS_TOO_OLD',
    message: refusedByBullmq
      ? `Redis ${tooOld.join(', ')} is too old: BullMQ refuses Redis older than ${BULLMQ_MIN_REDIS_VERSION.join('.')}, and docsync needs ${MIN} or newer`
      : `Redis ${tooOld.join(', ')} is too old: BullMQ runs on it but recommends ${MIN} or newer, and docsync needs ${MIN}`,
    hint: `upgrade Redis to ${MIN} or newer (7.x recommended)`,
  });
}

export function policyFinding(facts: readonly Pick<ServerFacts, 'maxmemoryPolicy'>[]): Finding {
  const policies = [...new Set(facts.map((fact) => fact.maxmemoryPolicy ?? 'unknown'))];
  if (policies.length === 1 && policies[0] === 'noeviction')
    return ok('redis-memory-policy', undefined, 'maxmemory-policy is noeviction');
  const others = policies.filter((policy) => policy !== 'noeviction');
  return warned('redis-memory-policy', undefined, {
    code: 'REDIS_EVICTION_POLICY',
    message: `maxmemory-policy is ${others.join(', ')}: under memory pressure Redis may evict queued jobs (BullMQ needs noeviction)`,
    hint: 'set maxmemory-policy noeviction in redis.conf, or at once with redis-cli CONFIG SET maxmemory-policy noeviction (a managed Redis: in its parameter settings)',
  });
}

/** No Redis configured and none running: `docsync start` needs redis-server on PATH. */
async function checkRedisServerProgram(input: RedisCheckInput): Promise<Finding[]> {
  const attempt = await input.runner.attempt(async (signal) => {
    const { stdout } = await run('redis-server', ['--version'], { env: { ...input.env }, signal });
    return stdout;
  });
  const url = input.names(['redis', 'url']);
  if (!attempt.ok) {
    const missing = (attempt.error as NodeJS.ErrnoException).code === 'ENOENT';
    return [
      failed('redis', undefined, {
        code: missing ? 'REDIS_SERVER_MISSING' : 'REDIS_SERVER_FAILED',
        message: missing
          ? `no ${url} is set, so docsync start runs its own redis-server, and there is none on PATH`
          : `no ${url} is set, so docsync start runs its own redis-server, and redis-server --version failed: ${describeFailure(attempt.error)}`,
        hint: REDIS_MISSING_HINT,
      }),
      skipped('redis-version', undefined, 'no redis-server to ask'),
      skipped('redis-memory-policy', undefined, 'no redis-server to ask'),
    ];
  }
  const version = /\bv=(\d+(?:\.\d+)*)/.exec(attempt.value)?.[1] ?? '0.0.0';
  return [
    ok(
      'redis',
      undefined,
      `no ${url} is set: docsync start runs its own redis-server, found on PATH (data in ${join(input.config.dataDir, 'redis')})`,
    ),
    versionFinding([{ version }]),
    ok('redis-memory-policy', undefined, 'noeviction: docsync starts its own redis-server with it'),
  ];
}
