// The OpenAPI document inside the content the service gives of a version. The interface says only
// that `filesystem` is an object: the local service puts the parsed document there, and the real
// service a list of parsed files (`{filename, isEntrypoint, specification}`, as its renderer reads
// it), the document being the entry point's. Anything else is no document: the caller cannot tell
// what the version holds.
import type { OpenApiSpecContent } from '../api/schemas/openapi-spec-version-schema.js';

type Document = Record<string, unknown>;

export function versionContentDocument(content: OpenApiSpecContent): Document | undefined {
  const { filesystem } = content;
  if (!Array.isArray(filesystem)) return isOpenApiDocument(filesystem) ? filesystem : undefined;
  const files = filesystem.filter(isRecord);
  const entry = files.length === 1 ? files[0] : files.find((file) => file.isEntrypoint === true);
  return isOpenApiDocument(entry?.specification) ? entry.specification : undefined;
}

function isOpenApiDocument(value: unknown): value is Document {
  return isRecord(value) && ('openapi' in value || 'swagger' in value);
}

function isRecord(value: unknown): value is Document {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
