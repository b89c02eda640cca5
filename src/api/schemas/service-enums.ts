// The closed vocabularies of the service, as the interface and its public OpenAPI document give
// them. The one copy: docsync builds its request option types and response schemas from these
// lists, and the local service its input schemas and stored records.

/**
 * Role of a member or default level of content; null (where allowed) means guest. Strongest first:
 * the local service reads a role as allowing all that the ones after it allow.
 */
export const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
export type Role = (typeof ROLES)[number];

export const SPACE_VISIBILITIES = [
  'public',
  'unlisted',
  'share-link',
  'visitor-auth',
  'in-collection',
  'private',
] as const;
export type SpaceVisibility = (typeof SPACE_VISIBILITIES)[number];

export const EDIT_MODES = ['live', 'locked'] as const;
export type EditMode = (typeof EDIT_MODES)[number];

export const CHANGE_REQUEST_STATUSES = ['draft', 'open', 'archived', 'merged'] as const;
export type ChangeRequestStatus = (typeof CHANGE_REQUEST_STATUSES)[number];
/** What a PATCH may set: a change request is merged only by `POST .../merge`. */
export const CHANGE_REQUEST_PATCH_STATUSES = ['draft', 'open', 'archived'] as const;
export type ChangeRequestPatchStatus = (typeof CHANGE_REQUEST_PATCH_STATUSES)[number];

export const REVIEW_STATUSES = ['approved', 'changes-requested'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export const COMMENT_STATUSES = ['open', 'resolved'] as const;
export type CommentStatus = (typeof COMMENT_STATUSES)[number];
/** The comment list filter: a status, or `all`. */
export const COMMENT_STATUS_FILTERS = [...COMMENT_STATUSES, 'all'] as const;
export type CommentStatusFilter = (typeof COMMENT_STATUS_FILTERS)[number];

/** `owner` manages a team's members; `member` is in it. */
export const TEAM_MEMBER_ROLES = ['owner', 'member'] as const;
export type TeamMemberRole = (typeof TEAM_MEMBER_ROLES)[number];

export const LINK_STATUSES = ['ok', 'broken', 'in-app'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

export const IMPORT_SOURCES = [
  'website',
  'docx',
  'markdown',
  'html',
  'zip',
  'confluence',
  'github-wiki',
  'notion',
  'google-docs',
] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

export const PROCESSING_STATES = ['pending', 'progress', 'complete'] as const;
export type ProcessingState = (typeof PROCESSING_STATES)[number];
export const PROCESS_ERROR_CODES = ['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR'] as const;
export type ProcessErrorCode = (typeof PROCESS_ERROR_CODES)[number];

export const LIST_ORDERS = ['asc', 'desc'] as const;
export type ListOrder = (typeof LIST_ORDERS)[number];

export const CONTENT_FORMATS = ['document', 'markdown'] as const;
export type ContentFormat = (typeof CONTENT_FORMATS)[number];

/** What the service answers to merge and update of a change request. */
/** `conflicts`: the service could not apply the change request's edits cleanly; nothing was merged. */
export const CHANGE_REQUEST_RESULTS = ['merge', 'update', 'conflicts'] as const;
