// One OpenAPI specification that docsync re-uploads on a schedule.
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { normalRepositoryPath } from '../git/normal-repository-path.js';
import { durationMs, HOUR, MINUTE } from './duration.js';
import { whenParsed } from './parsed-parts.js';
import { checkSchedule, SCHEDULE_PATHS, scheduleFields } from './schedule-schema.js';

/** Files a spec's `$ref`s may name, beyond the spec itself, unless `maxRefFiles` says otherwise. */
export const DEFAULT_MAX_REF_FILES = 200;
/** More files than this is a loop of `$ref`s rather than a spec. */
export const MAX_REF_FILES_LIMIT = 10_000;

const sourceUrl = z.string().superRefine((value, ctx) => {
  const message = sourceUrlProblem(value);
  if (message !== undefined) ctx.addIssue({ code: 'custom', message });
});

/**
 * `root`: the folder the spec's `$ref`s may reach, relative to the same place as the spec's own
 * path (the folder docsync runs in for `file`, the repository root for `path`). Without it, a
 * local file's `$ref`s stay in its own folder and a repository file's in the repository.
 */
const root = z.string().min(1).optional();

const source = z.union(
  [
    sourceUrl,
    z.strictObject({ mapping: z.string().min(1), path: z.string().min(1), root }),
    z.strictObject({ file: z.string().min(1), root }),
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
      if (typeof value.source === 'object' && value.source.root !== undefined) {
        const message =
          'file' in value.source
            ? fileRootProblem(value.source.file, value.source.root)
            : repositoryRootProblem(value.source.path, value.source.root);
        if (message !== undefined) ctx.addIssue({ code: 'custom', path: ['source', 'root'], message });
      }
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

function sourceUrlProblem(value: string): string | undefined {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  // `C:` would be a Windows drive rather than a scheme.
  if (url === undefined || /^[a-z]:$/i.test(url.protocol)) {
    if (/^https?:/i.test(value)) return `"${value}" is not a valid http(s) URL`;
    return `"${value}" is not a URL: for a local file write source: { file: ${value} }, for a file of a mapped repository source: { mapping: <name>, path: ${value} }`;
  }
  if (url.protocol === 'file:')
    return 'a source URL must be http(s): for a local file write source: { file: <path> }';
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'a source URL must be http(s)';
  return undefined;
}

/** Whether `root` holds `file`, both as written; mixed absolute and relative paths are checked on reading. */
function fileRootProblem(file: string, rootDir: string): string | undefined {
  if (isAbsolute(file) !== isAbsolute(rootDir) || folderHolds(rootDir, file)) return undefined;
  return `"${rootDir}" does not contain the spec's file ${file}: give a folder that holds it and the files its $refs name, such as root: .`;
}

/** Whether `file` is below `folder`, both relative to the same place or both absolute. */
export function folderHolds(folder: string, file: string): boolean {
  const inside = relative(folder, file);
  return inside !== '' && inside !== '..' && !inside.startsWith(`..${sep}`) && !isAbsolute(inside);
}

function repositoryRootProblem(path: string, rootDir: string): string | undefined {
  const folder = normalRepositoryPath(rootDir);
  if (folder === '..' || folder.startsWith('../'))
    return `"${rootDir}" leaves the repository: give a folder of the repository, such as root: . (all of it) or root: api`;
  const file = normalRepositoryPath(path);
  if (folder === '' || file.startsWith(`${folder}/`)) return undefined;
  return `"${rootDir}" does not contain the spec's path ${path}: give a folder that holds it, such as root: .`;
}
