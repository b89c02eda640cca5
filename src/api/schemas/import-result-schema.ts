// The answer of a content import: the new revision and how much of the source made it in.
import { z } from 'zod';

export const importResultSchema = z.looseObject({
  revision: z.string(),
  importedResources: z.number(),
  totalResources: z.number(),
});

export type ImportResult = z.output<typeof importResultSchema>;
