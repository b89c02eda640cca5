// The payload of the polls a job scheduler runs per mapping (git, change requests, space).
import { z } from 'zod';

export const mappingPollPayload = z.object({ mapping: z.string() });

export type MappingPollPayload = z.infer<typeof mappingPollPayload>;
