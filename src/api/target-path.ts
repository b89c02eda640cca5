// Where a space and each of its change requests keep the things they both have (content, comment
// threads): the space's path, or the change request's below it.
import { type ApiPath, apiPath } from './api-path.js';
import type { ContentTarget } from './call-options.js';

/** `/spaces/{s}` or `/spaces/{s}/change-requests/{cr}`. */
export function targetPath(target: ContentTarget): ApiPath {
  return target.changeRequestId === undefined
    ? apiPath`/spaces/${target.spaceId}`
    : apiPath`/spaces/${target.spaceId}/change-requests/${target.changeRequestId}`;
}
