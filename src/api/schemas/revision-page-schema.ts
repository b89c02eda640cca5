// A page of a revision (not to be confused with Page<T>, the list envelope): its place in the
// tree, its markdown when asked for, and its child pages.
import { z } from 'zod';
import { dateTime, gitFileInfo, urlMap } from './shared-fields.js';

export interface RevisionPage {
  id: string;
  title?: string | undefined;
  emoji?: string | undefined;
  icon?: string | undefined;
  createdAt?: string | undefined;
  updatedAt?: string | undefined;
  markdown?: string | undefined;
  type?: string | undefined;
  urls?: Record<string, string> | undefined;
  slug?: string | undefined;
  path?: string | undefined;
  description?: string | undefined;
  documentId?: string | undefined;
  pages?: RevisionPage[] | undefined;
  git?: { oid?: string | undefined; path?: string | undefined; [key: string]: unknown } | undefined;
  hidden?: boolean | undefined;
  noIndex?: boolean | undefined;
  noRobotsIndex?: boolean | undefined;
  [key: string]: unknown;
}

// No field is marked required in the interface; `id` is, as the key of the page operations.
export const revisionPageSchema: z.ZodType<RevisionPage> = z.looseObject({
  id: z.string(),
  title: z.string().optional(),
  emoji: z.string().optional(),
  icon: z.string().optional(),
  createdAt: dateTime.optional(),
  updatedAt: dateTime.optional(),
  markdown: z.string().optional(),
  type: z.string().optional(),
  urls: urlMap.optional(),
  slug: z.string().optional(),
  path: z.string().optional(),
  description: z.string().optional(),
  documentId: z.string().optional(),
  get pages() {
    return z.array(revisionPageSchema).optional();
  },
  git: gitFileInfo.optional(),
  hidden: z.boolean().optional(),
  noIndex: z.boolean().optional(),
  noRobotsIndex: z.boolean().optional(),
});
