// The whole configuration file, validated into one typed object. Unknown keys are errors so that a
// typo (`bracnh:`) is caught at start rather than silently ignored.
import { z } from 'zod';
import { LOG_LEVELS } from '../log/log-levels.js';
import { checkNotifyMappings, notifyHookSchema } from '../notify/notify-config-schema.js';
import { artifactsSchema } from './artifacts-schema.js';
import { mappingEntrySchema, splitMappings } from './branch-mapping-schema.js';
import { DAY, durationMs, HOUR, MINUTE, SECOND } from './duration.js';
import { checkSharedRepoAuth } from './git-auth-schema.js';
import { DEFAULT_HTTP_LISTEN, isLoopback, listenAddressSchema } from './listen-address.js';
import { checkMappingClaims, claimOf } from './mapping-claims.js';
import { openapiSchema } from './openapi-schema.js';
import { hasItsType, parsed, parsedItems } from './parsed-parts.js';

/** `${VAR:-}` gives an empty string: for optional keys that means "not set". */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' || value === null ? undefined : value), schema.optional());

const redisUrl = z.url({ protocol: /^rediss?$/, error: 'a Redis URL starts with redis:// or rediss://' });
/** A sentinel: `host:port`, or a URL when it needs a password or TLS (`rediss://:secret@host:26379`). */
const sentinelAddress = z
  .string()
  .regex(
    /^(rediss?:\/\/[^/\s]+|[A-Za-z0-9.-]+:\d{1,5})$/,
    'write a sentinel as host:port, or as redis://[:password@]host:port (rediss:// for TLS)',
  );
const pemFile = z.string().min(1, 'give the path of a PEM file');

const redisSchema = z.strictObject({
  url: optional(redisUrl),
  cluster: optional(z.strictObject({ nodes: z.array(redisUrl).min(1) })),
  /** High availability through Redis Sentinel: docsync asks the sentinels where the primary is. */
  sentinel: optional(
    z.strictObject({
      sentinels: z.array(sentinelAddress).min(1),
      /** The name the sentinels monitor the primary under (`sentinel monitor <name> ...`). */
      name: z.string().min(1),
      /** The primary's and replicas' ACL user and password; a sentinel's own go in its URL. */
      username: optional(z.string().min(1)),
      password: optional(z.string().min(1)),
    }),
  ),
  /** What a rediss:// connection trusts and shows: PEM files, read at start. */
  tls: optional(z.strictObject({ ca: optional(pemFile), cert: optional(pemFile), key: optional(pemFile) })),
  prefix: z
    .string()
    .regex(/^[A-Za-z0-9_{}:.-]{1,64}$/, 'use letters, digits and _ { } : . - only')
    .default('docsync'),
});

/** The file's keys, each checked on its own; configSchema adds the checks across them. Also the source of the JSON Schema (config-json-schema.ts). */
export const configFields = z.strictObject({
  dataDir: z.string().min(1).default('.docsync'),
  service: optional(
    z.strictObject({
      baseUrl: z.url({
        protocol: /^https?$/,
        error: 'service.baseUrl must be an http(s) URL ending in /v1',
      }),
      token: z.string().min(1),
      timeout: durationMs({ min: SECOND, max: 10 * MINUTE }).default(30 * SECOND),
      /** One budget for every process on the Redis: at most `requests` in any window of `per`. */
      rateLimit: optional(
        z.strictObject({
          requests: z.number().int().min(1).max(100_000),
          per: durationMs({ min: SECOND, max: DAY }),
        }),
      ),
    }),
  ),
  redis: redisSchema.prefault({}),
  http: z
    .strictObject({
      listen: listenAddressSchema.default(DEFAULT_HTTP_LISTEN),
      publicUrl: optional(z.url({ protocol: /^https?$/ })),
      token: optional(z.string().min(16, 'use a token of at least 16 characters')),
      artifactSecret: optional(z.string().min(32, 'use a secret of at least 32 characters')),
      artifactTtl: durationMs({ min: MINUTE, max: DAY }).default(15 * MINUTE),
      /** The queue dashboard (bull-board) at /ui: read-only unless told otherwise. */
      dashboard: z
        .strictObject({ enabled: z.boolean().default(true), readOnly: z.boolean().default(true) })
        .prefault({}),
    })
    .prefault({}),
  /** Where import bundles wait for the service: docsync's own HTTP server, or an S3 bucket. */
  artifacts: artifactsSchema.prefault({}),
  hooks: z
    .strictObject({
      secret: optional(z.string().min(16, 'use a secret of at least 16 characters')),
      gitlabToken: optional(z.string().min(16, 'use a token of at least 16 characters')),
      safetyPoll: durationMs({ min: SECOND, max: DAY }).default(HOUR),
    })
    .prefault({}),
  dryRun: z.boolean().default(false),
  log: z.strictObject({ level: z.enum(LOG_LEVELS).default('info') }).prefault({}),
  queues: z
    .strictObject({
      concurrency: z.int().min(1).max(64).default(4),
      attempts: z.int().min(1).max(50).default(5),
      backoff: durationMs({ min: 100, max: HOUR }).default(5 * SECOND),
      /** How long a running job's lock lasts unless renewed (BullMQ renews it at half of this). */
      lockDuration: durationMs({ min: SECOND, max: 10 * MINUTE }).default(8 * SECOND),
      /** How often workers look for jobs whose lock expired (their process died) to run them again. */
      stalledInterval: durationMs({ min: SECOND, max: 10 * MINUTE }).default(4 * SECOND),
      keepCompleted: z
        .strictObject({
          count: z.int().min(0).default(1000),
          age: durationMs({ min: 0, max: 90 * DAY }).default(7 * DAY),
        })
        .prefault({}),
      keepFailed: z
        .strictObject({
          count: z.int().min(0).default(5000),
          age: durationMs({ min: 0, max: 365 * DAY }).default(30 * DAY),
        })
        .prefault({}),
    })
    .prefault({}),
  locks: z
    .strictObject({
      ttl: durationMs({ min: SECOND, max: 10 * MINUTE }).default(30 * SECOND),
      busyDelay: durationMs({ min: 100, max: 10 * MINUTE }).default(5 * SECOND),
    })
    .prefault({}),
  shutdownTimeout: durationMs({ min: SECOND, max: 10 * MINUTE }).default(30 * SECOND),
  /** A mapping or spec is `failing` (not only `degraded`) after this many failures in a row of one job. */
  health: z.strictObject({ failingAfter: z.int().min(1).max(1000).default(3) }).prefault({}),
  /** Single-branch mappings (`git.branch`) and branches mappings (`git.branches`), split after checking. */
  mappings: z.array(mappingEntrySchema).default([]),
  openapi: z.array(openapiSchema).default([]),
  /** Webhooks told about merges, failures, broken links, conflicts (src/notify/). */
  notify: z.array(notifyHookSchema).default([]),
});

export const configSchema = configFields
  // Run whatever else failed, each check on the parts it reads that parsed (parsed-parts.ts).
  .superRefine(checkAcrossFields, { when: () => true })
  .transform(({ mappings, ...rest }) => ({ ...rest, ...splitMappings(mappings) }));

export type Config = z.output<typeof configSchema>;

type ConfigInput = z.output<typeof configFields>;

function checkAcrossFields(config: ConfigInput, ctx: z.RefinementCtx<ConfigInput>): void {
  const ok = (...path: PropertyKey[]) => parsed(ctx.issues, path);
  const mappings = parsedItems(ctx.issues, config.mappings, ['mappings']);
  const openapi = parsedItems(ctx.issues, config.openapi, ['openapi']);
  if (ok('service') && config.service === undefined && (mappings.length > 0 || openapi.length > 0)) {
    ctx.addIssue({
      code: 'custom',
      path: ['service'],
      message: 'Required: mappings and openapi need service.baseUrl and service.token',
    });
  }
  if (ok('redis')) checkRedis(config.redis, ctx);
  if (
    ok('http', 'listen') &&
    ok('http', 'token') &&
    !isLoopback(config.http.listen.host) &&
    config.http.token === undefined
  ) {
    ctx.addIssue({
      code: 'custom',
      path: ['http', 'token'],
      message: `Required: listening on ${config.http.listen.host} reaches beyond this machine; set http.token or listen on 127.0.0.1`,
    });
  }
  checkSharedRepoAuth(mappings, ctx);
  checkMappingClaims(
    mappings.map((mapping) => (mapping === undefined ? undefined : claimOf(mapping))),
    ctx,
  );
  // Whether a name is a mapping's is known only when every mapping parsed: a mapping with a problem
  // of its own (a branch missing) gives no value here, its name included.
  const names =
    hasItsType(ctx.issues, ['mappings']) && mappings.every((mapping) => mapping !== undefined)
      ? new Set(mappings.flatMap((mapping) => (mapping === undefined ? [] : [mapping.name])))
      : undefined;
  checkSpecsApart(openapi, names, ctx);
  if (names !== undefined)
    checkNotifyMappings({ notify: parsedItems(ctx.issues, config.notify, ['notify']), names }, ctx);
}

/** `mappingNames` undefined: some mapping's name did not parse, so a source's mapping is not judged. */
function checkSpecsApart(
  openapi: readonly (z.output<typeof openapiSchema> | undefined)[],
  mappingNames: ReadonlySet<string> | undefined,
  ctx: z.RefinementCtx,
): void {
  openapi.forEach((spec, i) => {
    if (spec === undefined) return;
    const firstIndex = openapi.findIndex((other) => other?.org === spec.org && other.slug === spec.slug);
    if (firstIndex !== i) {
      ctx.addIssue({
        code: 'custom',
        path: ['openapi', i, 'slug'],
        message: `duplicate spec: openapi[${firstIndex}] is also ${spec.org}/${spec.slug}`,
      });
    }
    if (
      mappingNames !== undefined &&
      typeof spec.source === 'object' &&
      'mapping' in spec.source &&
      !mappingNames.has(spec.source.mapping)
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['openapi', i, 'source', 'mapping'],
        message: `no mapping is named "${spec.source.mapping}"`,
      });
    }
  });
}

type RedisSection = z.output<typeof redisSchema>;

/** One way to reach Redis, a cluster prefix that keeps each queue in one slot, TLS files where TLS is on. */
function checkRedis(redis: RedisSection, ctx: z.RefinementCtx): void {
  const modes = (['url', 'cluster', 'sentinel'] as const).filter((mode) => redis[mode] !== undefined);
  if (modes.length > 1) {
    ctx.addIssue({
      code: 'custom',
      path: ['redis', modes[1] ?? 'url'],
      message: `give one of redis.url, redis.cluster or redis.sentinel, not ${modes.map((mode) => `redis.${mode}`).join(' and ')}`,
    });
  }
  if (redis.cluster !== undefined && redisHashTag(redis.prefix) === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['redis', 'prefix'],
      message:
        "with redis.cluster the prefix must carry a hash tag, for example {docsync}, so that BullMQ's keys of one queue land in one slot",
    });
  }
  const addresses = [
    ...(redis.url === undefined ? [] : [redis.url]),
    ...(redis.cluster?.nodes ?? []),
    ...(redis.sentinel?.sentinels ?? []),
  ];
  const tlsAddresses = addresses.filter((address) => address.startsWith('rediss://'));
  if (tlsAddresses.length > 0 && tlsAddresses.length < addresses.length) {
    ctx.addIssue({
      code: 'custom',
      path: ['redis', redis.cluster === undefined ? 'sentinel' : 'cluster'],
      message: 'write every address with rediss:// (TLS) or none: TLS is on or off for all of them',
    });
  }
  if (redis.tls === undefined) return;
  if (tlsAddresses.length === 0) {
    ctx.addIssue({
      code: 'custom',
      path: ['redis', 'tls'],
      message:
        'redis.tls is set but no Redis address starts with rediss://: write the address as rediss://host:port to connect with TLS',
    });
  }
  if ((redis.tls.cert === undefined) !== (redis.tls.key === undefined)) {
    ctx.addIssue({
      code: 'custom',
      path: ['redis', 'tls', redis.tls.cert === undefined ? 'cert' : 'key'],
      message: 'give redis.tls.cert and redis.tls.key together (the client certificate and its key)',
    });
  }
}

/** The part of a key Redis Cluster hashes: between the first `{` and the next `}`, when not empty. */
export function redisHashTag(key: string): string | undefined {
  const open = key.indexOf('{');
  if (open < 0) return undefined;
  const close = key.indexOf('}', open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : undefined;
}
