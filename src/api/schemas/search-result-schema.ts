// A page found by a space search, with the sections of it that matched.
import { z } from 'zod';
import { urlMap } from './shared-fields.js';

export const searchResultSchema = z.looseObject({
  id: z.string(),
  title: z.string().optional(),
  path: z.string().optional(),
  sections: z
    .array(
      z.looseObject({
        id: z.string().optional(),
        title: z.string().optional(),
        path: z.string().optional(),
        body: z.string().optional(),
        urls: urlMap.optional(),
      }),
    )
    .optional(),
  urls: urlMap.optional(),
});

export type SearchResult = z.output<typeof searchResultSchema>;
