// One mapping: a folder of a git branch kept in sync with a space of the documentation service.
import { posix } from 'node:path';
import { z } from 'zod';
import { checkReportToken, reportConfigSchema } from '../commit-status/report-config-schema.js';
import { importSettingsSchema } from '../content/import-settings-schema.js';
import { readConfigEnv } from './config-env.js';
import { DAY, durationMs, MINUTE, SECOND } from './duration.js';
import { checkGitAuth, gitAuthSchema } from './git-auth-schema.js';
import { whenParsed } from './parsed-parts.js';
import { checkSchedule, SCHEDULE_PATHS, scheduleFields } from './schedule-schema.js';

export const SUBJECT_PLACEHOLDERS = ['message', 'shortSha', 'sha', 'branch', 'author'] as const;

const name = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9_-]{0,63}$/,
    'use 1 to 64 lower-case letters, digits, - or _, starting with a letter or digit',
  );

const folder = z.string().transform((text, ctx) => {
  const normalized = posix.normalize(text.replaceAll('\\', '/')).replace(/\/+$/, '') || '.';
  if (
    posix.isAbsolute(normalized) ||
    normalized === '..' ||
    normalized.startsWith('../') ||
    text.includes('\0')
  ) {
    ctx.addIssue({
      code: 'custom',
      message: `"${text}" must be a folder inside the repository, such as docs`,
    });
    return z.NEVER;
  }
  return normalized;
});

const subjectTemplate = z
  .string()
  .min(1)
  .superRefine((text, ctx) => {
    for (const [, placeholder] of text.matchAll(/\{([^}]*)\}/g)) {
      if (!(SUBJECT_PLACEHOLDERS as readonly string[]).includes(placeholder ?? '')) {
        ctx.addIssue({
          code: 'custom',
          message: `unknown placeholder {${placeholder}}: use ${SUBJECT_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}`,
        });
      }
    }
  });

const pattern = z.string().superRefine((text, ctx) => {
  try {
    new RegExp(text);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: `invalid regular expression: ${(error as Error).message}` });
  }
});

const mappingFields = z.strictObject({
  name,
  space: z.string().min(1),
  direction: z.enum(['git-to-space', 'space-to-git', 'both']).default('git-to-space'),
  git: z
    .strictObject({
      repo: z.string().min(1),
      /** Credentials for a private repository (src/config/git-auth-schema.ts); git's own environment when absent. */
      auth: gitAuthSchema.optional(),
      branch: z.string().min(1),
      dir: folder.default('.'),
      poll: durationMs({ min: SECOND, max: DAY }).default(30 * SECOND),
      watch: z
        .strictObject({
          path: z.string().min(1),
          // At least 100 ms: the file watcher (chokidar) drops a file's change events within 50 ms of the
          // last one it passed on, so a shorter quiet period could end before a save it never saw.
          debounce: durationMs({ min: 100, max: MINUTE }).default(500),
        })
        .optional(),
    })
    .superRefine(checkGitAuth, whenParsed(['repo'], ['auth'])),
  changeRequest: z
    .strictObject({
      subject: subjectTemplate.default('docs: {message} ({shortSha})'),
      autoUpdate: z.enum(['always', 'before-merge', 'never']).default('before-merge'),
      manage: z.enum(['own', 'all']).default('own'),
      poll: durationMs({ min: SECOND, max: DAY }).default(MINUTE),
    })
    .prefault({}),
  merge: z
    .strictObject({
      enabled: z.boolean().default(false),
      approvals: z.int().min(0).max(20).default(1),
      resolvedComments: z.boolean().default(false),
      noBrokenLinks: z.boolean().default(false),
      blockSubject: pattern.optional(),
    })
    .prefault({}),
  links: z
    .strictObject({ ...scheduleFields, comment: z.boolean().default(true) })
    .superRefine((value, ctx) => checkSchedule(value, ctx, false), whenParsed(...SCHEDULE_PATHS))
    .prefault({}),
  export: z
    .strictObject({
      poll: durationMs({ min: SECOND, max: DAY }).default(MINUTE),
      author: z
        .strictObject({ name: z.string().min(1), email: z.email() })
        .default({ name: 'docsync', email: 'docsync@localhost' }),
      /** Files of the space larger than this are not exported: the export fails and says so. */
      maxFileBytes: z
        .int()
        .min(1024)
        .max(1024 * 1024 * 1024)
        .default(50 * 1024 * 1024),
    })
    .prefault({}),
  import: importSettingsSchema.prefault({}),
  /**
   * The git host that shows each imported commit's status (src/commit-status/). The token's
   * variable is read here, from the environment the configuration is read with (config-env.ts):
   * a variable not set stops the start. GitHub's may be left out beside git.auth.githubApp.
   */
  report: reportConfigSchema(readConfigEnv).optional(),
});

export const mappingSchema = mappingFields.superRefine(checkReportToken, whenParsed(['git'], ['report']));

export type MappingConfig = z.output<typeof mappingSchema>;
