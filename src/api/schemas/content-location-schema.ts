// Where a link points or sits, as the service's link checks and backlinks give it: a ContentLocation,
// whose organization, space, page and file are the records themselves, not their ids. docsync reads
// the kind, an address, and the ids (with a title or path to show) of the page, file and space; any
// other kind (a user, a collection, reusable content, a spec) is kept as it came rather than failing
// the whole link check.
import { z } from 'zod';

/** The part of an embedded record docsync reads: its id, and what names it for people. */
const recordRef = z.looseObject({
  id: z.string(),
  title: z.string().optional(),
  path: z.string().optional(),
  name: z.string().optional(),
});

export const contentLocationSchema = z.looseObject({
  kind: z.string(),
  /** `kind: 'url'`: the address, as written. */
  url: z.string().optional(),
  page: recordRef.optional(),
  file: recordRef.optional(),
  space: recordRef.optional(),
  organization: recordRef.optional(),
});

export type ContentLocation = z.output<typeof contentLocationSchema>;
