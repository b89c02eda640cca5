// A place that links to a file: the reference of the page or space holding the link.
import { z } from 'zod';

// The interface marks no field required; `kind` says what the other members mean.
export const backlinkSchema = z.looseObject({
  kind: z.string(),
  organization: z.string().optional(),
  space: z.string().optional(),
  versionContext: z.looseObject({ type: z.string().optional(), revision: z.string().optional() }).optional(),
  file: z.string().optional(),
  page: z.string().optional(),
});

export type Backlink = z.output<typeof backlinkSchema>;
