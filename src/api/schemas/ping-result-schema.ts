// The answer of `POST /orgs/{o}/ping`: optional visitor claims (a JWT) for the caller.
import { z } from 'zod';

export const pingResultSchema = z.looseObject({ serviceVisitorClaims: z.string().optional() });

export type PingResult = z.output<typeof pingResultSchema>;
