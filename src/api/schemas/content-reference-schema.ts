// Where a link points or sits: a page (of this or another space), a file, or an outside address.
import { z } from 'zod';

export const contentReferenceSchema = z.discriminatedUnion('kind', [
  z.looseObject({ kind: z.literal('page'), page: z.string(), space: z.string().optional() }),
  z.looseObject({ kind: z.literal('file'), file: z.string() }),
  z.looseObject({ kind: z.literal('url'), url: z.string() }),
]);

export type ContentReference = z.output<typeof contentReferenceSchema>;
