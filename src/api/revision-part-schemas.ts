// The schemas a streamed revision checks each part with (src/api/read-revision-stream.ts), compiled
// on the first revision read (z.compile: a generated validator, same results and issues as the
// runtime parser), not when the API client loads: every command that calls the service loads it,
// few read a revision, and compiling cost a tenth of the client's load. A page part holds no child
// pages (they are parts of their own, read apart): its schema is the page's without the recursive
// `pages` member, which z.compile cannot generate, and an empty `pages`. A part that fails it is
// checked again with the page's own schema, whose issues the error names.
import { z } from 'zod';
import { type RevisionFile, revisionFileSchema } from './schemas/revision-file-schema.js';
import { type RevisionPage, revisionPageSchema } from './schemas/revision-page-schema.js';

export interface RevisionPartSchemas {
  /** A page of a revision as one part: `pages` empty, when present. */
  page: z.ZodType<RevisionPage>;
  file: z.ZodType<RevisionFile>;
}

let compiled: RevisionPartSchemas | undefined;

export function revisionPartSchemas(): RevisionPartSchemas {
  compiled ??= {
    page:
      revisionPageSchema instanceof z.ZodObject
        ? (z.compile(
            revisionPageSchema.omit({ pages: true }).extend({ pages: z.tuple([]).optional() }),
          ) as unknown as z.ZodType<RevisionPage>)
        : revisionPageSchema,
    file: z.compile(revisionFileSchema),
  };
  return compiled;
}
