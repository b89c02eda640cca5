// Options every method takes (its AbortSignal) and every list method adds (the page cursor and
// size), and the address of content or a comment thread: a space, or a change request in it.
import type { RevisionPage } from './schemas/revision-page-schema.js';
import type { LinkStatus } from './schemas/service-enums.js';

export interface CallOptions {
  signal?: AbortSignal | undefined;
}

export interface ListOptions extends CallOptions {
  /** The cursor from the previous page's `next.page`. */
  page?: string | undefined;
  /** Items per page, at most 1000. */
  limit?: number | undefined;
}

/** The link checks: only links with this status when given. */
export interface LinkListOptions extends ListOptions {
  status?: LinkStatus | undefined;
}

/** The `...All()` variants choose page and limit themselves. */
export type ListAllOptions<O extends ListOptions> = Omit<O, 'page' | 'limit'>;

/** The space's main content, or a change request of it (by id or by number). */
export interface ContentTarget {
  spaceId: string;
  changeRequestId?: string | number | undefined;
}

/** The flags of the content reads: false skips git metadata or computed content, for speed. */
export interface ContentReadOptions extends CallOptions {
  metadata?: boolean | undefined;
  computed?: boolean | undefined;
  /**
   * A revision or page tree (getRevision, getPages) keeps of each page and file only the members
   * docsync reads (src/api/revision-content.ts): about half the memory of a large space's tree.
   */
  contentOnly?: boolean | undefined;
}

/** A revision read (getRevision): what is kept of each page as it arrives (RevisionStreamOptions). */
export interface RevisionReadOptions extends ContentReadOptions {
  keepPage?: ((page: RevisionPage) => RevisionPage) | undefined;
  pause?: (() => Promise<void> | undefined) | undefined;
}
