// Where a link points or sits. The kinds docsync reads (a page, a file, an outside address) are
// typed; any other kind the service reports (anchors, spaces, specs...) is kept as it came rather
// than failing the whole link check.
import { z } from 'zod';

export const contentReferenceSchema = z.looseObject({
  kind: z.string(),
  page: z.string().optional(),
  file: z.string().optional(),
  url: z.string().optional(),
  space: z.string().optional(),
  organization: z.string().optional(),
});

export type ContentReference = z.output<typeof contentReferenceSchema>;
