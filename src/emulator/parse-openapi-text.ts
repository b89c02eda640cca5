// Whether a text is an OpenAPI (or Swagger) document: JSON or YAML whose top level is an object with
// an `openapi` or `swagger` member. The text is read by docsync's own reader, with the same limits
// (duplicate keys, aliases, nesting), so that what docsync validated the service parses alike.
import { parseOpenApiText as readOpenApiText, type TextProblem } from '../openapi/parse-openapi-text.js';

export type ParsedOpenApi =
  | { ok: true; document: Record<string, unknown>; format: 'json' | 'yaml' }
  | { ok: false; reason: 'syntax'; problem: TextProblem }
  | { ok: false; reason: 'not-openapi' };

export function parseOpenApiText(text: string): ParsedOpenApi {
  const parsed = readOpenApiText(text);
  if (!parsed.ok) return { ok: false, reason: 'syntax', problem: parsed.problem };
  const { value, format } = parsed;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, reason: 'not-openapi' };
  const document = value as Record<string, unknown>;
  if (!('openapi' in document) && !('swagger' in document)) return { ok: false, reason: 'not-openapi' };
  return { ok: true, document, format };
}
