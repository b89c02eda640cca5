// The payload of the jobs that act on one change request at one revision (update, merge).
import { z } from 'zod';

export const changeRequestJobPayload = z.object({
  mapping: z.string(),
  space: z.string(),
  changeRequest: z.string(),
  revision: z.string(),
});

export type ChangeRequestJobPayload = z.infer<typeof changeRequestJobPayload>;
