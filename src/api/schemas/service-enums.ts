// The closed vocabularies of the service, as the interface and its public OpenAPI document give
// them. Request option types and response schemas are both built from these lists.

/** Role of a member or default level of content; null (where allowed) means guest. */
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

export const EDIT_MODES = ['live', 'locked'] as const;

export const CHANGE_REQUEST_STATUSES = ['draft', 'open', 'archived', 'merged'] as const;
export type ChangeRequestStatus = (typeof CHANGE_REQUEST_STATUSES)[number];
/** What a PATCH may set: a change request is merged only by `POST .../merge`. */
export const CHANGE_REQUEST_PATCH_STATUSES = ['draft', 'open', 'archived'] as const;
export type ChangeRequestPatchStatus = (typeof CHANGE_REQUEST_PATCH_STATUSES)[number];

export const REVIEW_STATUSES = ['approved', 'changes-requested'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export const COMMENT_STATUSES = ['open', 'resolved'] as const;
/** The comment list filter: a status, or `all`. */
export const COMMENT_STATUS_FILTERS = [...COMMENT_STATUSES, 'all'] as const;
export type CommentStatusFilter = (typeof COMMENT_STATUS_FILTERS)[number];

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
export const PROCESS_ERROR_CODES = ['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR'] as const;

export const LIST_ORDERS = ['asc', 'desc'] as const;
export type ListOrder = (typeof LIST_ORDERS)[number];

export const CONTENT_FORMATS = ['document', 'markdown'] as const;
export type ContentFormat = (typeof CONTENT_FORMATS)[number];

/** What the service answers to merge and update of a change request. */
/** `conflicts`: the service could not apply the change request's edits cleanly; nothing was merged. */
export const CHANGE_REQUEST_RESULTS = ['merge', 'update', 'conflicts'] as const;
