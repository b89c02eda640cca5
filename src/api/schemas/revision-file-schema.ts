// A file of a revision: an image or attachment with its download address.
import { z } from 'zod';
import { gitFileInfo } from './shared-fields.js';

// No field is marked required in the interface; `id` is, as the key of the file operations.
export const revisionFileSchema = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
  contentType: z.string().optional(),
  downloadURL: z.string().optional(),
  size: z.number().optional(),
  dimensions: z.looseObject({ width: z.number().optional(), height: z.number().optional() }).optional(),
  git: gitFileInfo.optional(),
});

export type RevisionFile = z.output<typeof revisionFileSchema>;
