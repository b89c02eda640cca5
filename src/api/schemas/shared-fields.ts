// Field shapes shared by many records: timestamps, roles, `urls` and `permissions` maps.
import { z } from 'zod';
import { ROLES } from './service-enums.js';

/** ISO 8601 with `Z` or an offset, as the service writes `createdAt` and friends. */
export const dateTime = z.iso.datetime({ offset: true });

/** A role, or null for a guest where the interface allows it. */
export const nullableRole = z.enum(ROLES).nullable();

/** A space's default level: a role, null for guests, or `inherit` (from its collection or organization). */
export const defaultLevel = z.union([z.enum(ROLES), z.literal('inherit')]).nullable();

/** The members of a map whose values pass `keep`; the others are dropped, not refused. */
function membersThat<T>(keep: (value: unknown) => value is T) {
  return z
    .record(z.string(), z.unknown())
    .transform((map) =>
      Object.fromEntries(Object.entries(map).filter((entry): entry is [string, T] => keep(entry[1]))),
    );
}

/**
 * `urls`: addresses by name (`location`, `app`, `published`, ...). The document lets the service
 * add members of any shape; docsync keeps the addresses.
 */
export const urlMap = membersThat((value): value is string => typeof value === 'string');

/**
 * `permissions`: what the caller may do with the record. Members of another shape than a boolean
 * (the document allows them) are dropped: docsync takes a permission as granted only when `true`.
 */
export const permissionMap = membersThat((value): value is boolean => typeof value === 'boolean');

/** `git` metadata of a page or file: the blob and its path in the synced repository. */
export const gitFileInfo = z.looseObject({ oid: z.string().optional(), path: z.string().optional() });
