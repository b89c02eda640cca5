// Field shapes shared by many records: timestamps, roles, `urls` and `permissions` maps.
import { z } from 'zod';
import { ROLES } from './service-enums.js';

/** ISO 8601 with `Z` or an offset, as the service writes `createdAt` and friends. */
export const dateTime = z.iso.datetime({ offset: true });

/** A role, or null for a guest where the interface allows it. */
export const nullableRole = z.enum(ROLES).nullable();

/** `urls`: addresses by name (`location`, `app`, `published`, ...). */
export const urlMap = z.record(z.string(), z.string());

/** `permissions`: what the caller may do with the record. */
export const permissionMap = z.record(z.string(), z.boolean());

/** `git` metadata of a page or file: the blob and its path in the synced repository. */
export const gitFileInfo = z.looseObject({ oid: z.string().optional(), path: z.string().optional() });
