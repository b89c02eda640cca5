// A page of a revision (not to be confused with Page<T>, the list envelope): its place in the
// tree, its markdown when asked for, and its child pages. One shape for the service's page types
// (`type`: `document`, `group`, `link`, `computed`), as loose as the interface is: a group holds
// `pages`, a link points at `target` (a ContentRef: `{kind: 'url', url}` for an address) and gives
// the resolved `href`.
import { z } from 'zod';
import { dateTime, gitFileInfo, urlMap } from './shared-fields.js';

/** What a link page points at: an address (`kind: 'url'`), or a page, file, space... of the service. */
export interface ContentRef {
  kind?: string | undefined;
  url?: string | undefined;
  page?: string | undefined;
  file?: string | undefined;
  space?: string | undefined;
  anchor?: string | undefined;
  [key: string]: unknown;
}

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
  /** A link page's destination. */
  target?: ContentRef | undefined;
  /** A link page's destination as an address, resolved by the service. */
  href?: string | undefined;
  hidden?: boolean | undefined;
  noIndex?: boolean | undefined;
  noRobotsIndex?: boolean | undefined;
  [key: string]: unknown;
}

// Every kind of reference the interface knows has `kind` and one string naming what it points at.
export const contentRefSchema: z.ZodType<ContentRef> = z.looseObject({
  kind: z.string().optional(),
  url: z.string().optional(),
  page: z.string().optional(),
  file: z.string().optional(),
  space: z.string().optional(),
  anchor: z.string().optional(),
});

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
  target: contentRefSchema.optional(),
  href: z.string().optional(),
  hidden: z.boolean().optional(),
  noIndex: z.boolean().optional(),
  noRobotsIndex: z.boolean().optional(),
});
