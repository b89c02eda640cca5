// export-space: one space revision written back to git; one job per space and revision.
import { z } from 'zod';
import { jobId } from '../../src/queue/job-id.js';
import { defineJobKind } from '../../src/queue/job-kind.js';

export const exportSpaceKind = defineJobKind({
  name: 'export-space',
  queue: 'export',
  payload: z.object({ mapping: z.string(), space: z.string(), revision: z.string() }),
  countsToward: (payload) => ({ mapping: payload.mapping }),
  id: (payload) => jobId('export', payload.space, payload.revision),
});
