// Records of an organization's structure in the local service's state: collections (which nest and
// hold spaces), teams and their members, custom field definitions and the values spaces give them,
// and invite links. Plain JSON-safe records, like those of emulator-state.ts.
import type { TeamMemberRole } from '../api/schemas/service-enums.js';
import type { Role } from './roles.js';

/** A collection's default level: a role, null (guests), or `inherit` (from its parent). */
export type CollectionLevel = Role | null | 'inherit';

export interface StoredCollection {
  id: string;
  seq: number;
  orgId: string;
  title: string;
  description?: string;
  /** The parent collection; absent at the organization's top level. */
  parent?: string;
  defaultLevel: CollectionLevel;
  /**
   * Its place among the collections and spaces of its parent: siblings are ordered by this key (a
   * space's is its `position`, or its `seq` until moved). Moves give a key between the neighbours'.
   */
  position: number;
  createdAt: string;
  updatedAt: string;
}

export interface StoredTeamMember {
  role: TeamMemberRole;
  /** When added, to order the team's member list. */
  seq: number;
}

export interface StoredTeam {
  id: string;
  seq: number;
  orgId: string;
  title: string;
  createdAt: string;
  /** By user id. A member later removed from the organization is ignored, not listed. */
  members: Record<string, StoredTeamMember>;
}

/**
 * Custom field types (the interface does not list them): what each accepts as a space's value. A
 * select takes one of its options, a multi-select a list of them.
 */
export const CUSTOM_FIELD_TYPES = ['text', 'number', 'boolean', 'select', 'multi-select'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

export interface StoredCustomField {
  id: string;
  seq: number;
  orgId: string;
  /** Unique in the organization; the key of values. */
  name: string;
  type: CustomFieldType;
  title?: string;
  description?: string;
  placeholder?: string;
  /** For select and multi-select fields only. */
  options?: string[];
  createdAt: string;
  updatedAt: string;
}

export type CustomFieldValue = string | number | boolean | string[];

/** Values of one space, by custom field id (so that they follow the field, not its name). */
export type StoredCustomFieldValues = Record<string, CustomFieldValue>;

interface StoredInviteBase {
  id: string;
  seq: number;
  orgId: string;
  createdAt: string;
}

/** An invite link: to the organization with a role, or to one space or collection with a level. */
export type StoredInvite =
  | (StoredInviteBase & { kind: 'organization'; role: Role | null })
  | (StoredInviteBase & { kind: 'space'; level: Role | null; spaceId: string })
  | (StoredInviteBase & { kind: 'collection'; level: Role | null; collectionId: string });
