// The interface's Page<T> envelope. Items are ordered by `seq`; the cursor names the last `seq`
// served, so every item is walked exactly once even while new ones are added.
import { z } from 'zod';
import { badRequest } from './emulator-http-error.js';

export const MAX_LIMIT = 1000;
export const DEFAULT_LIMIT = 50;

export interface PageQuery {
  page?: string | undefined;
  limit?: string | undefined;
}

export interface PageEnvelope<T> {
  next?: { page: string };
  count: number;
  items: T[];
}

const cursorSchema = z.object({ after: z.number().int(), order: z.enum(['asc', 'desc']) });

export function readLimit(limit: string | undefined): number {
  if (limit === undefined || limit === '') return DEFAULT_LIMIT;
  const value = Number(limit);
  if (!Number.isInteger(value) || value < 1 || value > MAX_LIMIT) {
    throw badRequest(`limit must be a whole number from 1 to ${MAX_LIMIT}`);
  }
  return value;
}

/** One page of `items` (any order given), rendered with `render`, ordered by seq. */
export function pageOf<S extends { seq: number }, T>(
  items: readonly S[],
  query: PageQuery,
  render: (item: S) => T,
  order: 'asc' | 'desc' = 'asc',
): PageEnvelope<T> {
  const limit = readLimit(query.limit);
  let after: number | undefined;
  if (query.page !== undefined && query.page !== '') {
    const parsed = cursorSchema.safeParse(decodeCursor(query.page));
    if (!parsed.success || parsed.data.order !== order)
      throw badRequest('page is not a cursor this list gave out');
    after = parsed.data.after;
  }
  const sorted = [...items].sort((a, b) => (order === 'asc' ? a.seq - b.seq : b.seq - a.seq));
  const rest =
    after === undefined
      ? sorted
      : sorted.filter((item) => (order === 'asc' ? item.seq > after : item.seq < after));
  const slice = rest.slice(0, limit);
  const last = slice.at(-1);
  return {
    ...(rest.length > limit && last !== undefined
      ? { next: { page: encodeCursor({ after: last.seq, order }) } }
      : {}),
    count: slice.length,
    items: slice.map(render),
  };
}

function encodeCursor(cursor: z.infer<typeof cursorSchema>): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(text: string): unknown {
  try {
    return JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}
