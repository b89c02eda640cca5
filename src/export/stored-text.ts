// A space's content as an export holds it once read: each page's markdown and each file's bytes are
// handed to a store as soon as they arrive (the git mirror's blob writer, src/git/blob-writer.ts)
// and only their blob ids and sizes are kept, with the two things the plan reads of a page's text:
// its first heading (its title when the summary gives none) and whether it is blank. Memory then
// follows the number of pages, not the size of what they hold; the commit names the blobs.
import type { RevisionPage } from '../api/schemas/revision-page-schema.js';
import { blobId, type StoredBlob } from '../content/folder-bytes.js';
import { firstHeading } from '../content/folder-to-tree.js';
import type { FolderContent } from '../content/tree-to-folder.js';
import type { PageText } from './revision-to-tree.js';

/** A page's markdown kept as a blob of the mirror. */
export interface StoredText extends StoredBlob {
  /** The first heading of the text (folder-to-tree.ts firstHeading). */
  readonly heading: string | undefined;
  readonly blank: boolean;
}

/** Where an export hands content over as it reads it. */
export interface ContentStore {
  add(data: Buffer): StoredBlob;
  /** Whether the store wants the reader to wait (`drained`) before handing over more. */
  readonly congested: boolean;
  drained(): Promise<void>;
  /** Resolves once every blob handed over is in the mirror: only then may a commit name them. */
  finish(): Promise<void>;
  /** Gives up what was not stored yet. */
  close(): void;
}

export function storeText(store: ContentStore, markdown: string): StoredText {
  const { blob, size } = store.add(Buffer.from(markdown, 'utf8'));
  return { blob, size, heading: firstHeading(markdown), blank: markdown.trim() === '' };
}

/** A tree of stored texts and blobs, as treeToFolder writes it: the blobs are what the folder holds. */
export const STORED_CONTENT: FolderContent<StoredText, StoredBlob> = {
  markdownBytes: ({ blob, size }) => ({ blob, size }),
  heading: (text) => text.heading,
  fileBytes: (data) => data,
};

/** The plan's text of a document: its stored markdown (an empty text when none was read). */
export function storedPageText(
  textOf: (page: RevisionPage) => StoredText | undefined,
  empty: () => StoredText,
): PageText<StoredText> {
  return { of: (page) => textOf(page) ?? empty(), blank: (text) => text.blank };
}

/**
 * A store that writes nothing, for a dry run, which commits nothing: the blob ids only, to tell
 * what git already has.
 */
export function hashingStore(hashLength: number): ContentStore {
  return {
    add: (data) => ({ blob: blobId(data, hashLength), size: data.length }),
    congested: false,
    drained: async () => undefined,
    finish: async () => undefined,
    close: () => undefined,
  };
}
