// One OpenAPI specification that docsync re-uploads on a schedule.
import { resolve } from 'node:path';
import { z } from 'zod';
import { openapiSourceSchema, sourceRootProblem } from '../openapi/openapi-source-schema.js';
import { durationMs, HOUR, MINUTE } from './duration.js';
import { whenParsed } from './parsed-parts.js';
import { checkSchedule, SCHEDULE_PATHS, scheduleFields } from './schedule-schema.js';

/** Files a spec's `$ref`s may name, beyond the spec itself, unless `maxRefFiles` says otherwise. */
export const DEFAULT_MAX_REF_FILES = 200;
/** More files than this is a loop of `$ref`s rather than a spec. */
export const MAX_REF_FILES_LIMIT = 10_000;

export const openapiSchema = z
  .strictObject({
    org: z.string().min(1),
    slug: z.string().regex(/^[a-z0-9][a-z0-9-]{0,99}$/, 'use lower-case letters, digits and -'),
    source: openapiSourceSchema,
    ...scheduleFields,
    upload: z.enum(['text', 'url']).default('text'),
    jitter: durationMs({ min: 0, max: HOUR }).default(0),
    timeout: durationMs({ min: 1000, max: 10 * MINUTE }).default(30_000),
    /** How long the service may take to process an upload before the refresh fails (and is retried). */
    processingTimeout: durationMs({ min: 1000, max: HOUR }).default(5 * MINUTE),
    maxBytes: z
      .int()
      .min(1024)
      .max(100 * 1024 * 1024)
      .default(10 * 1024 * 1024),
    maxRefFiles: z
      .int('give a whole number of files, such as maxRefFiles: 500')
      .min(0, 'give 0 (no other files) or more')
      .max(MAX_REF_FILES_LIMIT, 'at most 10000: more files than that is a loop of $refs rather than a spec')
      .default(DEFAULT_MAX_REF_FILES),
  })
  .superRefine(
    (value, ctx) => {
      checkSchedule(value, ctx, true);
      if (value.upload === 'url' && typeof value.source !== 'string') {
        ctx.addIssue({
          code: 'custom',
          path: ['upload'],
          message: 'upload: url needs a source URL the service can fetch',
        });
      }
      if (value.every !== undefined && value.jitter >= value.every) {
        ctx.addIssue({ code: 'custom', path: ['jitter'], message: 'jitter must be shorter than every' });
      }
      const message = sourceRootProblem(value.source);
      if (message !== undefined) ctx.addIssue({ code: 'custom', path: ['source', 'root'], message });
    },
    whenParsed(...SCHEDULE_PATHS, ['upload'], ['jitter'], ['source']),
  );

export type OpenApiConfig = z.output<typeof openapiSchema>;

/** The spec with a local source's `file` and `root` made absolute against `cwd`, where docsync started. */
export function withAbsoluteLocalPaths(spec: OpenApiConfig, cwd: string): OpenApiConfig {
  const { source } = spec;
  if (typeof source !== 'object' || !('file' in source)) return spec;
  return {
    ...spec,
    source: {
      file: resolve(cwd, source.file),
      ...(source.root === undefined ? {} : { root: resolve(cwd, source.root) }),
    },
  };
}
