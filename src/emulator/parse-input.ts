// Bodies and query strings of requests, validated with zod: a bad one is a 400 naming the field.
import type { z } from 'zod';
import { formatZodPath } from '../errors/format-zod-path.js';
import { badRequest } from './emulator-http-error.js';

export function parseInput<T>(schema: z.ZodType<T>, input: unknown, where: 'body' | 'query'): T {
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues
    .slice(0, 5)
    .map((issue) => `${formatZodPath(issue.path) || where}: ${issue.message}`)
    .join('; ');
  throw badRequest(`invalid ${where}: ${issues}`);
}
