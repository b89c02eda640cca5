// The content of a space or of one of its change requests (same operations under both prefixes):
// the revision, its pages and files, imports into it, and the links of one page.
import { type ApiPath, apiPath } from './api-path.js';
import type {
  CallOptions,
  ContentReadOptions,
  ContentTarget,
  LinkListOptions,
  ListAllOptions,
  ListOptions,
} from './call-options.js';
import type { DownloadOptions, HttpTransport } from './http-transport.js';
import { listAll } from './list-all.js';
import { type Backlink, backlinkSchema } from './schemas/backlink-schema.js';
import { type ContentPages, contentPagesSchema } from './schemas/content-pages-schema.js';
import { type ImportResult, importResultSchema } from './schemas/import-result-schema.js';
import {
  type LinkCheckItem,
  type LinkCheckList,
  linkCheckListSchema,
} from './schemas/link-check-list-schema.js';
import { type Page, pageOf } from './schemas/page-of.js';
import { type RevisionFile, revisionFileSchema } from './schemas/revision-file-schema.js';
import { type RevisionPage, revisionPageSchema } from './schemas/revision-page-schema.js';
import { type Revision, revisionSchema } from './schemas/revision-schema.js';
import type { ContentFormat, ImportSource } from './schemas/service-enums.js';

const filePageSchema = pageOf(revisionFileSchema);
const backlinkPageSchema = pageOf(backlinkSchema);

export interface FileListOptions extends ListOptions {
  metadata?: boolean | undefined;
  computed?: boolean | undefined;
}

export interface PageReadOptions extends ContentReadOptions {
  /** `markdown` includes the page's markdown; `document` its structured document. */
  format?: ContentFormat | undefined;
}

export interface ContentImport {
  /** Where the service fetches the content from: docsync's signed bundle address. */
  url: string;
  source: ImportSource;
}

/** `/spaces/{s}/content` or `/spaces/{s}/change-requests/{cr}/content`. */
function contentPath(target: ContentTarget): ApiPath {
  return target.changeRequestId === undefined
    ? apiPath`/spaces/${target.spaceId}/content`
    : apiPath`/spaces/${target.spaceId}/change-requests/${target.changeRequestId}/content`;
}

export class ContentApi {
  constructor(private readonly transport: HttpTransport) {}

  /** `GET .../content`: the current revision with its pages and files. */
  getRevision(target: ContentTarget, options: ContentReadOptions = {}): Promise<Revision> {
    return this.transport.request('GET', contentPath(target), {
      query: { metadata: options.metadata, computed: options.computed },
      signal: options.signal,
      schema: revisionSchema,
    });
  }

  /** `GET .../content/pages`: the page tree (not paged). */
  getPages(target: ContentTarget, options: ContentReadOptions = {}): Promise<ContentPages> {
    return this.transport.request('GET', apiPath`${contentPath(target)}/pages`, {
      query: { metadata: options.metadata, computed: options.computed },
      signal: options.signal,
      schema: contentPagesSchema,
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

  /** `GET .../content/files`. */
  listFiles(target: ContentTarget, options: FileListOptions = {}): Promise<Page<RevisionFile>> {
    return this.transport.request('GET', apiPath`${contentPath(target)}/files`, {
      query: {
        page: options.page,
        limit: options.limit,
        metadata: options.metadata,
        computed: options.computed,
      },
      signal: options.signal,
      schema: filePageSchema,
    });
  }

  listFilesAll(
    target: ContentTarget,
    options: ListAllOptions<FileListOptions> = {},
  ): AsyncGenerator<RevisionFile, void, undefined> {
    return listAll(apiPath`${contentPath(target)}/files`, (cursor) =>
      this.listFiles(target, { ...options, ...cursor }),
    );
  }

  /** `GET .../content/files/{fileId}`. */
  getFile(target: ContentTarget, fileId: string, options: ContentReadOptions = {}): Promise<RevisionFile> {
    return this.transport.request('GET', apiPath`${contentPath(target)}/files/${fileId}`, {
      query: { metadata: options.metadata, computed: options.computed },
      signal: options.signal,
      schema: revisionFileSchema,
    });
  }

  /** `GET .../content/files/{fileId}/backlinks`: where the file is used. */
  listFileBacklinks(
    target: ContentTarget,
    fileId: string,
    options: ListOptions = {},
  ): Promise<Page<Backlink>> {
    return this.transport.request('GET', apiPath`${contentPath(target)}/files/${fileId}/backlinks`, {
      query: { page: options.page, limit: options.limit },
      signal: options.signal,
      schema: backlinkPageSchema,
    });
  }

  listFileBacklinksAll(
    target: ContentTarget,
    fileId: string,
    options: ListAllOptions<ListOptions> = {},
  ): AsyncGenerator<Backlink, void, undefined> {
    return listAll(apiPath`${contentPath(target)}/files/${fileId}/backlinks`, (cursor) =>
      this.listFileBacklinks(target, fileId, { ...options, ...cursor }),
    );
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
    return this.transport.request('GET', apiPath`${contentPath(target)}/page/${pageId}/links`, {
      query: { status: options.status, page: options.page, limit: options.limit },
      signal: options.signal,
      schema: linkCheckListSchema,
    });
  }

  listPageLinksAll(
    target: ContentTarget,
    pageId: string,
    options: ListAllOptions<LinkListOptions> = {},
  ): AsyncGenerator<LinkCheckItem, void, undefined> {
    return listAll(apiPath`${contentPath(target)}/page/${pageId}/links`, (cursor) =>
      this.listPageLinks(target, pageId, { ...options, ...cursor }),
    );
  }
}
