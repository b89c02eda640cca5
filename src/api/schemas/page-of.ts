// The envelope of every list operation, Page<T> in the interface: the items and, when more
// follow, the cursor to pass as `page`.
import { z } from 'zod';

export interface Page<T> {
  next?: { page: string } | undefined;
  count?: number | undefined;
  items: T[];
}

export function pageOf<T extends z.ZodType>(item: T) {
  return z.looseObject({
    next: z.looseObject({ page: z.string() }).optional(),
    count: z.number().optional(),
    items: z.array(item),
  });
}
