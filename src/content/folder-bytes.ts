// What a docs folder holds at a path, as the export writes it: bytes in memory, or a blob already in
// the git mirror's object store, named by its id. A space's content is written into the mirror as it
// is read (src/git/blob-writer.ts), so that an export holds each page's and file's blob id and size,
// not its bytes: memory follows the number of pages, not the size of what they hold.
import { createHash } from 'node:crypto';

/** Bytes kept in a git object store as a blob: its id (sha1, or sha256) and its length. */
export interface StoredBlob {
  readonly blob: string;
  readonly size: number;
}

export type FolderBytes = Buffer | StoredBlob;

export function isStoredBlob(bytes: FolderBytes): bytes is StoredBlob {
  return !Buffer.isBuffer(bytes);
}

/** Git's id of a blob with these bytes: sha1, or sha256 in a repository of that object format. */
export function blobId(data: Buffer, hashLength: number): string {
  return createHash(hashLength === 64 ? 'sha256' : 'sha1')
    .update(`blob ${data.length}\0`)
    .update(data)
    .digest('hex');
}

/** The blob id of what a folder holds at a path, in a repository whose ids are `hashLength` long. */
export function blobOf(bytes: FolderBytes, hashLength: number): string {
  return isStoredBlob(bytes) ? bytes.blob : blobId(bytes, hashLength);
}
