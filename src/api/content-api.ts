// The content of a space or of one of its change requests (same operations under both prefixes):
// the revision, its pages, imports into it, the links of one page, and file downloads.
import { type ApiPath, apiPath } from './api-path.js';
import type {
  CallOptions,
  ContentReadOptions,
  ContentTarget,
  LinkListOptions,
  ListAllOptions,
  RevisionReadOptions,
} from './call-options.js';
import type { DownloadOptions, HttpTransport } from './http-transport.js';
import { PagedList } from './paged-list.js';
import { readContentStream, readRevisionStream } from './read-revision-stream.js';
import { type ContentPages, contentPagesSchema } from './schemas/content-pages-schema.js';
import { type ImportResult, importResultSchema } from './schemas/import-result-schema.js';
import {
  type LinkCheckItem,
  type LinkCheckList,
  linkCheckListSchema,
} from './schemas/link-check-list-schema.js';
import { type RevisionPage, revisionPageSchema } from './schemas/revision-page-schema.js';
import type { Revision } from './schemas/revision-schema.js';
import type { ContentFormat, ImportSource } from './schemas/service-enums.js';
import { targetPath } from './target-path.js';

export interface PageReadOptions extends ContentReadOptions {
  /** `markdown` includes the page's markdown; `document` its structured document. */
  format?: ContentFormat | undefined;
}

export interface ContentImport {
  /** Where the service fetches the content from: docsync's signed bundle address. */
  url: string;
  source: ImportSource;
}

/** The most of a revision's body read in all: about a million pages of real size. */
const MAX_REVISION_BYTES = 2 * 1024 * 1024 * 1024;

/** `/spaces/{s}/content` or `/spaces/{s}/change-requests/{cr}/content`. */
function contentPath(target: ContentTarget): ApiPath {
  return apiPath`${targetPath(target)}/content`;
}

export class ContentApi {
  private readonly pageLinks: PagedList<LinkCheckList, LinkListOptions>;

  constructor(private readonly transport: HttpTransport) {
    this.pageLinks = new PagedList(transport, linkCheckListSchema, (options) => ({ status: options.status }));
  }

  /**
   * `GET .../content`: the current revision with its pages and files. The service has no paging of
   * a revision, so its body is read as it arrives, page by page (readRevisionStream): a space of
   * 100,000 pages is never one string, and the size cap applies to each page, not to the whole.
   */
  getRevision(target: ContentTarget, options: RevisionReadOptions = {}): Promise<Revision> {
    const maxPartBytes = this.transport.maxBodyBytes;
    return this.transport.requestStream(contentPath(target), {
      query: { metadata: options.metadata, computed: options.computed },
      signal: options.signal,
      read: (body, answer) =>
        readRevisionStream(body, answer, {
          maxPartBytes,
          maxTotalBytes: MAX_REVISION_BYTES,
          contentOnly: options.contentOnly,
          keepPage: options.keepPage,
          pause: options.pause,
        }),
    });
  }

  /** `GET .../content/pages`: the page tree (not paged), read as it arrives as getRevision is. */
  getPages(target: ContentTarget, options: ContentReadOptions = {}): Promise<ContentPages> {
    const maxPartBytes = this.transport.maxBodyBytes;
    return this.transport.requestStream(apiPath`${contentPath(target)}/pages`, {
      query: { metadata: options.metadata, computed: options.computed },
      signal: options.signal,
      read: (body, answer) =>
        readContentStream(
          body,
          answer,
          { maxPartBytes, maxTotalBytes: MAX_REVISION_BYTES, contentOnly: options.contentOnly },
          contentPagesSchema,
        ),
    });
  }

  /** `GET .../content/page/{pageId}`. */
  getPage(target: ContentTarget, pageId: string, options: PageReadOptions = {}): Promise<RevisionPage> {
    return this.transport.request('GET', apiPath`${contentPath(target)}/page/${pageId}`, {
      query: { format: options.format, metadata: options.metadata, computed: options.computed },
      signal: options.signal,
      schema: revisionPageSchema,
    });
  }

  /**
   * `POST .../content/import`: 201. The service fetches `url` and replaces the content with it;
   * fewer `importedResources` than `totalResources` means some were left out. Never retried blindly.
   */
  importContent(
    target: ContentTarget,
    source: ContentImport,
    options: CallOptions = {},
  ): Promise<ImportResult> {
    return this.transport.request('POST', apiPath`${contentPath(target)}/import`, {
      body: { url: source.url, source: source.source },
      signal: options.signal,
      schema: importResultSchema,
    });
  }

  /**
   * The bytes of a file from its `downloadURL` (the service's origin, or a CDN's): the token goes
   * only to the service's own origin; over `maxBytes` fails with API_RESPONSE_TOO_LARGE.
   */
  download(url: string, options: DownloadOptions): Promise<Buffer> {
    return this.transport.download(url, options);
  }

  /** `GET .../content/page/{pageId}/links`: the page's links, and `stats`. */
  listPageLinks(
    target: ContentTarget,
    pageId: string,
    options: LinkListOptions = {},
  ): Promise<LinkCheckList> {
    return this.pageLinks.page(apiPath`${contentPath(target)}/page/${pageId}/links`, options);
  }

  listPageLinksAll(
    target: ContentTarget,
    pageId: string,
    options: ListAllOptions<LinkListOptions> = {},
  ): AsyncGenerator<LinkCheckItem, void, undefined> {
    return this.pageLinks.all(apiPath`${contentPath(target)}/page/${pageId}/links`, options);
  }
}
