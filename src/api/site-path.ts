// What every part of the sites client shares: the path of a site, and how deletions answer.
import { z } from 'zod';
import { type ApiPath, apiPath } from './api-path.js';

/** `/orgs/{o}/sites/{siteId}`, the prefix of everything in a site. */
export function sitePath(orgId: string, siteId: string): ApiPath {
  return apiPath`/orgs/${orgId}/sites/${siteId}`;
}

/** Deletions answer 205, or 204 when there was nothing to delete. */
export const DELETED_STATUSES = [204, 205] as const;

/** The body of a 204 or 205: none. */
export const noContentSchema = z.undefined();
