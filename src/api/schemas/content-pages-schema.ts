// The answer of `GET .../content/pages`: the page tree of a revision, without the revision itself.
import { z } from 'zod';
import { revisionPageSchema } from './revision-page-schema.js';

export const contentPagesSchema = z.looseObject({ pages: z.array(revisionPageSchema) });

export type ContentPages = z.output<typeof contentPagesSchema>;
