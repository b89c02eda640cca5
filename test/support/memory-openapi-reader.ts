// An OpenAPI source whose document is `openapi.yaml` under MEMORY_SPEC_BASE and whose other files
// are held in memory, by path under that base; it records every file a `$ref` made it read.
import type { OpenApiSourceReader } from '../../src/openapi/openapi-source-types.js';

export const MEMORY_SPEC_BASE = 'https://specs.example/api/';

export function memoryOpenApiReader(
  files: Record<string, string>,
): OpenApiSourceReader & { reads: string[] } {
  const reads: string[] = [];
  return {
    location: `${MEMORY_SPEC_BASE}openapi.yaml`,
    label: 'openapi.yaml',
    reads,
    read: async () => ({ kind: 'not-modified' }),
    readRef: async (location) => {
      const path = decodeURI(location.slice(MEMORY_SPEC_BASE.length));
      reads.push(path);
      const text = files[path];
      if (text === undefined) throw new Error(`no file at ${location}`);
      return Buffer.from(text);
    },
  };
}
