// The answer of merging a change request or updating it from main: the revision it produced.
import { z } from 'zod';
import { CHANGE_REQUEST_RESULTS } from './service-enums.js';

export const changeRequestResultSchema = z.looseObject({
  revision: z.string(),
  result: z.enum(CHANGE_REQUEST_RESULTS),
});

export type ChangeRequestResult = z.output<typeof changeRequestResultSchema>;
