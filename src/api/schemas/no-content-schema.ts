// The "schema" of a 204 or 205 answer: no body at all.
import { z } from 'zod';

export const noContentSchema = z.undefined();
