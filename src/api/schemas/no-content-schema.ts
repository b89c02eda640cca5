// What a 204 or 205 answer parses to: nothing (the transport ignores any body they carry).
import { z } from 'zod';

export const noContentSchema = z.undefined().transform((): void => undefined);
