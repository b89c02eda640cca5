// The whole configuration file, validated into one typed object. Unknown keys are errors so that a
// typo (`bracnh:`) is caught at start rather than silently ignored.
import { posix } from 'node:path';
import { z } from 'zod';
import { LOG_LEVELS } from '../log/log-levels.js';
import { DAY, durationMs, HOUR, MINUTE, SECOND } from './duration.js';
import { DEFAULT_HTTP_LISTEN, isLoopback, listenAddressSchema } from './listen-address.js';
import { mappingSchema } from './mapping-schema.js';
import { openapiSchema } from './openapi-schema.js';

/** `${VAR:-}` gives an empty string: for optional keys that means "not set". */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' || value === null ? undefined : value), schema.optional());

const redisUrl = z.url({ protocol: /^rediss?$/, error: 'a Redis URL starts with redis:// or rediss://' });

export const configSchema = z
  .strictObject({
    dataDir: z.string().min(1).default('.docsync'),
    service: optional(
      z.strictObject({
        baseUrl: z.url({
          protocol: /^https?$/,
          error: 'service.baseUrl must be an http(s) URL ending in /v1',
        }),
        token: z.string().min(1),
        timeout: durationMs({ min: SECOND, max: 10 * MINUTE }).default(30 * SECOND),
      }),
    ),
    redis: z
      .strictObject({
        url: optional(redisUrl),
        cluster: optional(z.strictObject({ nodes: z.array(redisUrl).min(1) })),
        prefix: z
          .string()
          .regex(/^[A-Za-z0-9_{}:.-]{1,64}$/, 'use letters, digits and _ { } : . - only')
          .default('docsync'),
      })
      .prefault({}),
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
    hooks: z
      .strictObject({
        secret: optional(z.string().min(16, 'use a secret of at least 16 characters')),
        gitlabToken: optional(z.string().min(16, 'use a token of at least 16 characters')),
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
    mappings: z.array(mappingSchema).default([]),
    openapi: z.array(openapiSchema).default([]),
  })
  .superRefine((config, ctx) => {
    if (config.service === undefined && (config.mappings.length > 0 || config.openapi.length > 0)) {
      ctx.addIssue({
        code: 'custom',
        path: ['service'],
        message: 'Required: mappings and openapi need service.baseUrl and service.token',
      });
    }
    if (config.redis.url !== undefined && config.redis.cluster !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['redis', 'cluster'],
        message: 'give either redis.url or redis.cluster, not both',
      });
    }
    if (config.redis.cluster !== undefined && !/\{[^{}]+\}/.test(config.redis.prefix)) {
      ctx.addIssue({
        code: 'custom',
        path: ['redis', 'prefix'],
        message:
          'with redis.cluster the prefix must carry a hash tag, for example {docsync}, so that each queue stays in one slot',
      });
    }
    if (!isLoopback(config.http.listen.host) && config.http.token === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['http', 'token'],
        message: `Required: listening on ${config.http.listen.host} reaches beyond this machine; set http.token or listen on 127.0.0.1`,
      });
    }
    checkMappingsApart(config.mappings, ctx);
    checkSpecsApart(config, ctx);
  });

export type Config = z.output<typeof configSchema>;

type Mapping = z.output<typeof mappingSchema>;

/** Two mappings must never write to the same space, nor read overlapping folders of one branch. */
function checkMappingsApart(mappings: readonly Mapping[], ctx: z.RefinementCtx): void {
  mappings.forEach((mapping, i) => {
    for (let j = 0; j < i; j += 1) {
      const other = mappings[j] as Mapping;
      if (other.name === mapping.name) {
        ctx.addIssue({
          code: 'custom',
          path: ['mappings', i, 'name'],
          message: `duplicate name: mappings[${j}] is also "${mapping.name}"`,
        });
      }
      if (other.space === mapping.space) {
        ctx.addIssue({
          code: 'custom',
          path: ['mappings', i, 'space'],
          message: `mappings[${j}] (${other.name}) already maps space ${mapping.space}`,
        });
      }
      if (
        other.git.repo === mapping.git.repo &&
        other.git.branch === mapping.git.branch &&
        foldersOverlap(other.git.dir, mapping.git.dir)
      ) {
        ctx.addIssue({
          code: 'custom',
          path: ['mappings', i, 'git', 'dir'],
          message: `overlaps mappings[${j}] (${other.name}): ${other.git.dir} and ${mapping.git.dir} on the same repository and branch`,
        });
      }
    }
  });
}

function foldersOverlap(a: string, b: string): boolean {
  if (a === '.' || b === '.' || a === b) return true;
  const inside = (child: string, parent: string) => posix.relative(parent, child).split('/')[0] !== '..';
  return inside(a, b) || inside(b, a);
}

function checkSpecsApart(
  config: { openapi: readonly z.output<typeof openapiSchema>[]; mappings: readonly Mapping[] },
  ctx: z.RefinementCtx,
): void {
  const mappingNames = new Set(config.mappings.map((mapping) => mapping.name));
  config.openapi.forEach((spec, i) => {
    const firstIndex = config.openapi.findIndex(
      (other) => other.org === spec.org && other.slug === spec.slug,
    );
    if (firstIndex !== i) {
      ctx.addIssue({
        code: 'custom',
        path: ['openapi', i, 'slug'],
        message: `duplicate spec: openapi[${firstIndex}] is also ${spec.org}/${spec.slug}`,
      });
    }
    if (
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
