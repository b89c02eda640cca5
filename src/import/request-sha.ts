import type { ImportRequest } from './import-request.js';

/** The commit an import request names; undefined for a working copy. */
export function shaOf(request: ImportRequest): string | undefined {
  return request.source === 'git' ? request.sha : undefined;
}
