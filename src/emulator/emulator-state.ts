// The local documentation service's data: plain JSON-safe records keyed by id, so that the whole
// state can be written to and read from a file (`--state`). Every record carries `seq`, a number
// that only grows, which orders lists and makes page cursors stable while items are added.
import type {
  ChangeRequestStatus,
  CommentStatus,
  EditMode,
  ProcessErrorCode,
  ProcessingState,
  ReviewStatus,
  SpaceVisibility,
} from '../api/schemas/service-enums.js';
import type { Role } from './roles.js';
import type {
  StoredCollection,
  StoredCustomField,
  StoredCustomFieldValues,
  StoredInvite,
  StoredTeam,
} from './stored-org-resources.js';
import type { StoredSamlProvider, StoredTranslationSettings } from './stored-org-settings.js';
import type { StoredSite } from './stored-sites.js';

export interface StoredUser {
  id: string;
  displayName: string;
  email: string;
}

export interface StoredMember {
  userId: string;
  role: Role | null;
  joinedAt: string;
  lastSeenAt?: string;
  disabled: boolean;
  sso: boolean;
  seq: number;
}

export interface StoredOrg {
  id: string;
  seq: number;
  title: string;
  createdAt: string;
  emailDomains: string[];
  hostname?: string;
  defaultRole: Role | null;
  inviteLinks: boolean;
  sso: boolean;
  ai: boolean;
  logo?: string | null;
  members: Record<string, StoredMember>;
}

export interface StoredSpace {
  id: string;
  seq: number;
  orgId: string;
  title: string;
  emoji: string;
  visibility: SpaceVisibility;
  editMode: EditMode;
  defaultLevel: Role | null;
  parent?: string;
  /** Its sibling key among its parent's children once moved (`seq` until then). */
  position?: number;
  createdAt: string;
  updatedAt: string;
  deletedAt?: string;
  /** The active revision of the main content. */
  revision: string;
  /** Change request numbers handed out so far in this space. */
  changeRequestCount: number;
}

/**
 * A page of a revision, of one of the service's page types. One record shape for all three keeps
 * state files written before page types readable: a page without `type` is a document.
 */
export interface StoredPage {
  id: string;
  /** `document` when absent. A group (a SUMMARY.md heading) is top level only and holds no group. */
  type?: StoredPageType;
  title: string;
  slug: string;
  /**
   * The document's file in the docs folder, such as `guides/install.md`. Absent for groups and
   * links, and for a document with no file: a SUMMARY.md entry without a link (`* Overview`).
   */
  sourcePath?: string;
  /** The document's markdown; '' for groups, links and documents with no file. */
  markdown: string;
  /** A link's address, such as `https://status.example.com`. */
  href?: string;
  createdAt: string;
  updatedAt: string;
  /** Child pages; none under a link. */
  pages: StoredPage[];
}

export type StoredPageType = 'document' | 'group' | 'link';

export interface StoredFile {
  id: string;
  name: string;
  /** Source file path in the docs folder, such as `images/logo.png`. */
  sourcePath: string;
  contentType: string;
  size: number;
  /** The bytes, base64. */
  data: string;
}

/** A content state of a space or change request. Revisions never change once made. */
export interface StoredRevision {
  id: string;
  seq: number;
  parents: string[];
  createdAt: string;
  pages: StoredPage[];
  files: StoredFile[];
}

export interface StoredChangeRequest {
  id: string;
  seq: number;
  spaceId: string;
  number: number;
  status: ChangeRequestStatus;
  subject: string;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  revision: string;
  revisionInitial: string;
  revisionMergedAncestor?: string;
  revisionMerged?: string;
  /** Users who changed its content, for the `contributor` filter. */
  contributors: string[];
}

export interface StoredReview {
  id: string;
  seq: number;
  changeRequestId: string;
  reviewerId: string;
  revision: string;
  status: ReviewStatus;
  createdAt: string;
  updatedAt: string;
}

export interface StoredReaction {
  emoji: string;
  users: Array<{ userId: string; reactedAt: string }>;
}

/** What comments and their replies both are: a markdown body by one user, with reactions. */
export interface StoredPost {
  id: string;
  seq: number;
  postedBy: string;
  postedAt: string;
  editedAt?: string;
  markdown: string;
  reactions: StoredReaction[];
}

export interface StoredComment extends StoredPost {
  spaceId: string;
  changeRequestId?: string;
  status: CommentStatus;
  resolvedAt?: string;
  resolvedBy?: string;
  target: { pageId?: string; nodeId?: string };
  deletedAt?: string;
}

export interface StoredReply extends StoredPost {
  commentId: string;
}

export interface StoredOpenApiSpec {
  id: string;
  seq: number;
  orgId: string;
  slug: string;
  createdAt: string;
  updatedAt: string;
  sourceURL?: string;
  processingState: ProcessingState;
  lastVersion?: string;
  lastProcessedAt?: string;
  lastProcessErrorCode?: ProcessErrorCode;
}

export interface StoredOpenApiVersion {
  id: string;
  seq: number;
  specId: string;
  createdAt: string;
  /** sha256 of the text, to make a version only when the content differs from the last one. */
  contentHash: string;
  text: string;
  sourceURL?: string;
}

export interface EmulatorState {
  version: 1;
  seq: number;
  users: Record<string, StoredUser>;
  orgs: Record<string, StoredOrg>;
  spaces: Record<string, StoredSpace>;
  revisions: Record<string, StoredRevision>;
  changeRequests: Record<string, StoredChangeRequest>;
  reviews: Record<string, StoredReview>;
  comments: Record<string, StoredComment>;
  replies: Record<string, StoredReply>;
  openapiSpecs: Record<string, StoredOpenApiSpec>;
  openapiVersions: Record<string, StoredOpenApiVersion>;
  sites: Record<string, StoredSite>;
  collections: Record<string, StoredCollection>;
  teams: Record<string, StoredTeam>;
  customFields: Record<string, StoredCustomField>;
  /** By space id. */
  customFieldValues: Record<string, StoredCustomFieldValues>;
  invites: Record<string, StoredInvite>;
  samlProviders: Record<string, StoredSamlProvider>;
  translationSettings: Record<string, StoredTranslationSettings>;
}

export function emptyState(): EmulatorState {
  return {
    version: 1,
    seq: 0,
    users: {},
    orgs: {},
    spaces: {},
    revisions: {},
    changeRequests: {},
    reviews: {},
    comments: {},
    replies: {},
    openapiSpecs: {},
    openapiVersions: {},
    sites: {},
    collections: {},
    teams: {},
    customFields: {},
    customFieldValues: {},
    invites: {},
    samlProviders: {},
    translationSettings: {},
  };
}

/** The next ordering number. */
export function nextSeq(state: EmulatorState): number {
  state.seq += 1;
  return state.seq;
}
