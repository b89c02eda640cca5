// Comments in the thread of a space or of one of its change requests (the same operations under
// both prefixes): listing, posting, and updating (resolving is an update with `resolved: true`).
import { type ApiPath, apiPath } from './api-path.js';
import type { CallOptions, ContentTarget, ListAllOptions, ListOptions } from './call-options.js';
import type { HttpTransport } from './http-transport.js';
import { PagedList } from './paged-list.js';
import { type Comment, commentSchema } from './schemas/comment-schema.js';
import { type Page, pageOf } from './schemas/page-of.js';
import type { CommentStatusFilter, ContentFormat, ListOrder } from './schemas/service-enums.js';
import { targetPath } from './target-path.js';

/** A comment's content as written. */
export interface CommentBody {
  markdown: string;
}

export interface CommentListOptions extends ListOptions {
  /** Default `desc`. */
  order?: ListOrder | undefined;
  /** Default `all`. */
  status?: CommentStatusFilter | undefined;
  format?: ContentFormat | undefined;
  /** Only comments on this page id. */
  targetPage?: string | undefined;
  /** Only comments by these user ids. */
  authors?: readonly string[] | undefined;
}

export interface NewComment {
  body: CommentBody;
  /** The page commented on. */
  page?: string;
  /** The node commented on, inside the page. */
  node?: string;
}

export interface CommentChanges {
  body?: CommentBody;
  addedReactions?: readonly string[];
  removedReactions?: readonly string[];
  /** true resolves the comment, false opens it again. */
  resolved?: boolean;
}

/** `/spaces/{s}/comments` or `/spaces/{s}/change-requests/{cr}/comments`. */
function threadPath(thread: ContentTarget): ApiPath {
  return apiPath`${targetPath(thread)}/comments`;
}

export class CommentsApi {
  private readonly comments: PagedList<Page<Comment>, CommentListOptions>;

  constructor(private readonly transport: HttpTransport) {
    this.comments = new PagedList(transport, pageOf(commentSchema), (options) => ({
      order: options.order,
      status: options.status,
      format: options.format,
      targetPage: options.targetPage,
      authors: options.authors,
    }));
  }

  list(thread: ContentTarget, options: CommentListOptions = {}): Promise<Page<Comment>> {
    return this.comments.page(threadPath(thread), options);
  }

  listAll(
    thread: ContentTarget,
    options: ListAllOptions<CommentListOptions> = {},
  ): AsyncGenerator<Comment, void, undefined> {
    return this.comments.all(threadPath(thread), options);
  }

  /** Never retried blindly: a retry could post the comment twice. */
  create(thread: ContentTarget, comment: NewComment, options: CallOptions = {}): Promise<Comment> {
    return this.transport.request('POST', threadPath(thread), {
      body: comment,
      signal: options.signal,
      schema: commentSchema,
    });
  }

  /** `PUT`: edits the body, resolves or reopens, adds or removes reactions. */
  update(
    thread: ContentTarget,
    commentId: string,
    changes: CommentChanges,
    options: CallOptions = {},
  ): Promise<Comment> {
    return this.transport.request('PUT', apiPath`${threadPath(thread)}/${commentId}`, {
      body: changes,
      signal: options.signal,
      schema: commentSchema,
    });
  }
}
