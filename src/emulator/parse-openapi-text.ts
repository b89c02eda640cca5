// Whether a text is an OpenAPI (or Swagger) document: JSON or YAML whose top level is an object with
// an `openapi` or `swagger` member. Pure, so processing and the content routes agree.
import { parseDocument } from 'yaml';

export type ParsedOpenApi =
  | { ok: true; document: Record<string, unknown>; format: 'json' | 'yaml' }
  | { ok: false; reason: 'syntax' | 'not-openapi' };

export function parseOpenApiText(text: string): ParsedOpenApi {
  const source = text.replace(/^\uFEFF/, '');
  const json = parseJson(source);
  if (json !== undefined) return asOpenApi(json.value, 'json');
  // parseDocument instead of parse: errors are read here, and warnings are never printed.
  const yaml = parseDocument(source, { prettyErrors: false });
  if (yaml.errors.length > 0) return { ok: false, reason: 'syntax' };
  try {
    return asOpenApi(yaml.toJS(), 'yaml');
  } catch {
    // toJS throws on too many alias expansions, the guard against exponential documents.
    return { ok: false, reason: 'syntax' };
  }
}

function parseJson(text: string): { value: unknown } | undefined {
  const start = text.trimStart()[0];
  if (start !== '{' && start !== '[') return undefined;
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    // Not JSON, but possibly YAML in flow style: the YAML parser decides.
    return undefined;
  }
}

function asOpenApi(value: unknown, format: 'json' | 'yaml'): ParsedOpenApi {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, reason: 'not-openapi' };
  const document = value as Record<string, unknown>;
  if (!('openapi' in document) && !('swagger' in document)) return { ok: false, reason: 'not-openapi' };
  return { ok: true, document, format };
}
