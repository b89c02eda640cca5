// One OpenAPI specification that docsync re-uploads on a schedule.
import { z } from 'zod';
import { durationMs, HOUR, MINUTE } from './duration.js';
import { checkSchedule, scheduleFields } from './schedule-schema.js';

const source = z.union(
  [
    z.url({ protocol: /^https?$/, error: 'a source URL must be http(s)' }),
    z.strictObject({ mapping: z.string().min(1), path: z.string().min(1) }),
    z.strictObject({ file: z.string().min(1) }),
  ],
  {
    error:
      'give an http(s) URL, { mapping, path } for a file of a mapped repository, or { file } for a local path',
  },
);

export const openapiSchema = z
  .strictObject({
    org: z.string().min(1),
    slug: z.string().regex(/^[a-z0-9][a-z0-9-]{0,99}$/, 'use lower-case letters, digits and -'),
    source,
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
  })
  .superRefine((value, ctx) => {
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
  });

export type OpenApiConfig = z.output<typeof openapiSchema>;
