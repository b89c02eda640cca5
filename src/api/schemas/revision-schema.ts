// A revision: the content state of a space or change request, with its page tree and files.
import { z } from 'zod';
import { revisionFileSchema } from './revision-file-schema.js';
import { revisionPageSchema } from './revision-page-schema.js';
import { dateTime, urlMap } from './shared-fields.js';

// No field is marked required in the interface; `id` is: revisions are compared by it everywhere.
export const revisionSchema = z.looseObject({
  object: z.literal('revision').optional(),
  id: z.string(),
  parents: z.array(z.string()).optional(),
  pages: z.array(revisionPageSchema).optional(),
  files: z.array(revisionFileSchema).optional(),
  reusableContents: z
    .array(z.looseObject({ id: z.string().optional(), title: z.string().optional() }))
    .optional(),
  createdAt: dateTime.optional(),
  git: z
    .looseObject({
      oid: z.string().optional(),
      message: z.string().optional(),
      createdByService: z.boolean().optional(),
      url: z.string().optional(),
      ref: z.string().optional(),
    })
    .optional(),
  urls: urlMap.optional(),
  type: z.string().optional(),
});

export type Revision = z.output<typeof revisionSchema>;
