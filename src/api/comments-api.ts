// Comments and their replies, in the thread of a space or of one of its change requests (the same
// operations under both prefixes). Resolving a comment is an update with `resolved: true`.
import { type ApiPath, apiPath } from './api-path.js';
import type { CallOptions, ContentTarget, ListAllOptions, ListOptions } from './call-options.js';
import type { HttpTransport } from './http-transport.js';
import { listAll } from './list-all.js';
import { type CommentReply, commentReplySchema } from './schemas/comment-reply-schema.js';
import { type Comment, commentSchema } from './schemas/comment-schema.js';
import { noContentSchema } from './schemas/no-content-schema.js';
import { type Page, pageOf } from './schemas/page-of.js';
import type { CommentStatusFilter, ContentFormat, ListOrder } from './schemas/service-enums.js';

const commentPageSchema = pageOf(commentSchema);
const replyPageSchema = pageOf(commentReplySchema);

/** A comment's content as written. */
export interface CommentBody {
  markdown: string;
}

export interface FormatOptions extends CallOptions {
  format?: ContentFormat | undefined;
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

export interface ReplyChanges {
  body?: CommentBody;
  addedReactions?: readonly string[];
  removedReactions?: readonly string[];
}

export interface CommentChanges extends ReplyChanges {
  /** true resolves the comment, false opens it again. */
  resolved?: boolean;
}

export type ReplyListOptions = ListOptions & { format?: ContentFormat | undefined };

/** `/spaces/{s}/comments` or `/spaces/{s}/change-requests/{cr}/comments`. */
function threadPath(thread: ContentTarget): ApiPath {
  return thread.changeRequestId === undefined
    ? apiPath`/spaces/${thread.spaceId}/comments`
    : apiPath`/spaces/${thread.spaceId}/change-requests/${thread.changeRequestId}/comments`;
}

export class CommentsApi {
  constructor(private readonly transport: HttpTransport) {}

  list(thread: ContentTarget, options: CommentListOptions = {}): Promise<Page<Comment>> {
    return this.transport.request('GET', threadPath(thread), {
      query: {
        page: options.page,
        limit: options.limit,
        order: options.order,
        status: options.status,
        format: options.format,
        targetPage: options.targetPage,
        authors: options.authors,
      },
      signal: options.signal,
      schema: commentPageSchema,
    });
  }

  listAll(
    thread: ContentTarget,
    options: ListAllOptions<CommentListOptions> = {},
  ): AsyncGenerator<Comment, void, undefined> {
    return listAll(threadPath(thread), (cursor) => this.list(thread, { ...options, ...cursor }));
  }

  /** Never retried blindly: a retry could post the comment twice. */
  create(thread: ContentTarget, comment: NewComment, options: CallOptions = {}): Promise<Comment> {
    return this.transport.request('POST', threadPath(thread), {
      body: comment,
      signal: options.signal,
      schema: commentSchema,
    });
  }

  get(thread: ContentTarget, commentId: string, options: FormatOptions = {}): Promise<Comment> {
    return this.transport.request('GET', apiPath`${threadPath(thread)}/${commentId}`, {
      query: { format: options.format },
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

  /** 205. */
  delete(thread: ContentTarget, commentId: string, options: CallOptions = {}): Promise<void> {
    return this.transport.request('DELETE', apiPath`${threadPath(thread)}/${commentId}`, {
      signal: options.signal,
      schema: noContentSchema,
      expect: [204, 205],
    });
  }

  listReplies(
    thread: ContentTarget,
    commentId: string,
    options: ReplyListOptions = {},
  ): Promise<Page<CommentReply>> {
    return this.transport.request('GET', apiPath`${threadPath(thread)}/${commentId}/replies`, {
      query: { page: options.page, limit: options.limit, format: options.format },
      signal: options.signal,
      schema: replyPageSchema,
    });
  }

  listRepliesAll(
    thread: ContentTarget,
    commentId: string,
    options: ListAllOptions<ReplyListOptions> = {},
  ): AsyncGenerator<CommentReply, void, undefined> {
    return listAll(apiPath`${threadPath(thread)}/${commentId}/replies`, (cursor) =>
      this.listReplies(thread, commentId, { ...options, ...cursor }),
    );
  }

  createReply(
    thread: ContentTarget,
    commentId: string,
    reply: { body: CommentBody },
    options: FormatOptions = {},
  ): Promise<CommentReply> {
    return this.transport.request('POST', apiPath`${threadPath(thread)}/${commentId}/replies`, {
      query: { format: options.format },
      body: reply,
      signal: options.signal,
      schema: commentReplySchema,
    });
  }

  getReply(
    thread: ContentTarget,
    commentId: string,
    replyId: string,
    options: FormatOptions = {},
  ): Promise<CommentReply> {
    return this.transport.request('GET', apiPath`${threadPath(thread)}/${commentId}/replies/${replyId}`, {
      query: { format: options.format },
      signal: options.signal,
      schema: commentReplySchema,
    });
  }

  /** `PUT`; the interface shows it for space threads only. */
  updateReply(
    thread: ContentTarget,
    commentId: string,
    replyId: string,
    changes: ReplyChanges,
    options: CallOptions = {},
  ): Promise<CommentReply> {
    return this.transport.request('PUT', apiPath`${threadPath(thread)}/${commentId}/replies/${replyId}`, {
      body: changes,
      signal: options.signal,
      schema: commentReplySchema,
    });
  }
}
