// The schemas a streamed revision checks each part with (src/api/read-revision-stream.ts), compiled
// once (z.compile: a generated validator, same results and issues as the runtime parser). A page
// part holds no child pages (they are parts of their own, read apart): its schema is the page's
// without the recursive `pages` member, which z.compile cannot generate, and an empty `pages`.
// A part that fails it is checked again with the page's own schema, whose issues the error names.
import { z } from 'zod';
import { revisionFileSchema } from './schemas/revision-file-schema.js';
import { type RevisionPage, revisionPageSchema } from './schemas/revision-page-schema.js';

/** A page of a revision as one part: `pages` empty, when present. */
export const revisionPagePartSchema: z.ZodType<RevisionPage> =
  revisionPageSchema instanceof z.ZodObject
    ? (z.compile(
        revisionPageSchema.omit({ pages: true }).extend({ pages: z.tuple([]).optional() }),
      ) as unknown as z.ZodType<RevisionPage>)
    : revisionPageSchema;

export const revisionFilePartSchema = z.compile(revisionFileSchema);
