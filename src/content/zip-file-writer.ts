// Writes a bundle zip to a file, one entry after another, with flat memory: small entries deflated
// on this thread and gathered with their headers into large writes, larger ones deflated in
// parallel on libuv's pool. yazl (which the tests' test/support/write-zip.ts uses) is not used here:
// its stream entries are deflated one after another through a new zlib stream each (twice git
// archive's time on 10,000 small files), and its buffer entries stay in memory until the end. Same
// fixed time and mode as the tests' write-zip, so equal entries give equal bytes.
import { createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import { constants, crc32, deflateRaw, deflateRawSync, type ZlibOptions } from 'node:zlib';
import { ContentError } from './content-error.js';
import { waitForDrain } from './wait-for-drain.js';

const MIB = 1024 * 1024;
/** Content added but not yet in the file; one entry larger than this is still taken alone. */
const WINDOW_BYTES = 16 * MIB;
/** Entries added but not yet in the file: enough to keep libuv's pool of four busy. */
const WINDOW_ENTRIES = 16;
const FILE_BUFFER_BYTES = 1 * MIB;
/**
 * Headers, names and small payloads are copied into blocks of this size, each one write to the
 * file: three stream writes per entry cost more than the copies on folders of small pages.
 */
const BLOCK_BYTES = 256 * 1024;
/** Payloads from this size on are written as they are, not copied. */
const DIRECT_BYTES = 64 * 1024;
const LEVEL = 6;
const SYNC_DEFLATE_BYTES = 64 * 1024;
const SAMPLE_BYTES = 4 * 1024;
const INCOMPRESSIBLE_RATIO = 0.95;
// zlib's limits: raw deflate takes windows of 2^9 to 2^15 bytes, memLevel 8 is its default, and it
// keeps a lookahead (MIN_LOOKAHEAD in deflate.h) past the data in the window.
const MIN_WINDOW_BITS = 9;
const MAX_WINDOW_BITS = 15;
const MAX_MEM_LEVEL = 8;
const MIN_LOOKAHEAD = 262;
// zlib's symbol buffer holds 2^(memLevel + 6) symbols and its hash table 2^(memLevel + 7) entries:
// this offset makes them at least twice and four times the data's length.
const MEM_LEVEL_OFFSET = 5;
// Room in the output buffer beyond the data, for what deflate adds to data it cannot shrink.
const CHUNK_SLACK = 64;
// More than 65,535 entries take zip64's end records (a 50,000-page docs folder has more files than
// that with its images); offsets and sizes stay 32-bit, so a bundle holds at most 4 GiB.
const ZIP32_MAX_ENTRIES = 0xffff;
const MAX_OFFSET = 0xffffffff;
const VERSION_ZIP64 = 45;

const LOCAL_HEADER_BYTES = 30;
const CENTRAL_HEADER_BYTES = 46;
const STORE = 0;
const DEFLATE = 8;
const UTF8_NAMES = 0x0800;
const VERSION_NEEDED = 20;
const MADE_BY_UNIX = (3 << 8) | VERSION_NEEDED;
const FILE_MODE = 0o100644;
// 1980-01-01 12:00:00 in DOS format, as write-zip's fixed time: the bytes never depend on the clock.
const DOS_TIME = 12 << 11;
const DOS_DATE = (1 << 5) | 1;

interface Prepared {
  name: Buffer;
  crc: number;
  method: number;
  size: number;
  payload: Buffer;
}

interface CentralRecord {
  name: Buffer;
  crc: number;
  method: number;
  size: number;
  compressedSize: number;
  offset: number;
}

export class ZipFileWriter {
  private readonly output: WriteStream;
  private readonly central: CentralRecord[] = [];
  /** Entries deflating on the pool, and the entries added after them, written in order. */
  private queue: Promise<void> = Promise.resolve();
  private queued = 0;
  private offset = 0;
  private inFlightBytes = 0;
  private block = Buffer.allocUnsafe(BLOCK_BYTES);
  private used = 0;
  private full = false;
  private failure: unknown;
  private wake: (() => void) | undefined;

  constructor(readonly outFile: string) {
    this.output = createWriteStream(outFile, { highWaterMark: FILE_BUFFER_BYTES });
    this.output.on('error', (error) => this.fail(error));
  }

  /**
   * Adds a file named `name` (normalised, posix). A small file is deflated and written at once; a
   * larger one's deflate starts on the pool, and it is written after the entries added before it.
   * Resolves when the writer can take the next one.
   */
  async add(name: string, data: Buffer): Promise<void> {
    if (this.failure !== undefined) throw this.failure;
    try {
      const nameBytes = Buffer.from(name, 'utf8');
      const how = deflation(data);
      if (how === 'pool') {
        this.enqueue(data.length, prepareOnPool(nameBytes, data));
      } else {
        const entry = prepareHere(nameBytes, data, how === 'here');
        if (this.queued > 0) {
          this.enqueue(data.length, Promise.resolve(entry));
        } else {
          this.writeEntry(entry);
          if (this.full) await this.drained();
          return;
        }
      }
    } catch (error) {
      this.fail(error);
      throw this.failure;
    }
    while (this.overWindow(data.length) && this.failure === undefined) {
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
    this.wake = undefined;
    if (this.failure !== undefined) throw this.failure;
  }

  /** Writes the central directory and closes the file; returns the zip's size in bytes. */
  async finish(): Promise<number> {
    await this.queue;
    if (this.failure !== undefined) throw this.failure;
    try {
      const start = this.offset;
      for (const record of this.central) {
        const at = this.reserve(CENTRAL_HEADER_BYTES + record.name.length);
        centralHeader(this.block, at, record);
        if (this.full) await this.drained();
      }
      const entries = this.central.length;
      const size = this.offset - start;
      if (entries >= ZIP32_MAX_ENTRIES) {
        const zip64End = this.offset;
        this.append(zip64EndOfCentralDirectory(entries, size, start));
        this.append(zip64Locator(zip64End));
      }
      this.append(endOfCentralDirectory(Math.min(entries, ZIP32_MAX_ENTRIES), size, start));
      this.flushBlock();
    } catch (error) {
      this.fail(error);
      throw this.failure;
    }
    await new Promise<void>((resolve, reject) => {
      this.output.once('error', reject);
      this.output.end(() => resolve());
    });
    if (this.failure !== undefined) throw this.failure;
    return this.offset;
  }

  /** Stops writing and removes the unfinished file. Safe after a failure, or twice. */
  async abort(): Promise<void> {
    this.fail(new ContentError('ARCHIVE_INVALID', 'the bundle was abandoned'));
    await this.queue.catch(() => {});
    // A stream destroyed while its file is still opening closes the file once open: wait for that,
    // or the file could appear again after it was removed.
    this.output.destroy();
    await finished(this.output).catch(() => {});
    await rm(this.outFile, { force: true });
  }

  /** An entry written once those added before it are, and its deflate is done. */
  private enqueue(size: number, prepared: Promise<Prepared>): void {
    this.inFlightBytes += size;
    this.queued += 1;
    prepared.catch(() => {});
    this.queue = this.queue.then(async () => {
      const entry = await prepared;
      if (this.failure === undefined) {
        this.writeEntry(entry);
        if (this.full) await this.drained();
      }
      this.inFlightBytes -= entry.size;
      this.queued -= 1;
      this.wake?.();
    });
    this.queue.catch((error: unknown) => this.fail(error));
  }

  private overWindow(lastSize: number): boolean {
    if (this.queued <= 1) return false;
    return (
      this.queued > WINDOW_ENTRIES || (this.inFlightBytes > WINDOW_BYTES && this.inFlightBytes > lastSize)
    );
  }

  private writeEntry(entry: Prepared): void {
    const compressedSize = entry.payload.length;
    if (this.offset + LOCAL_HEADER_BYTES + entry.name.length + compressedSize > MAX_OFFSET) {
      throw new ContentError('ARCHIVE_TOO_LARGE', 'a bundle zip holds at most 4 GiB');
    }
    // Named fields, not a spread: the record stays to the end, the payload must not.
    const { name, crc, method, size } = entry;
    const record: CentralRecord = { name, crc, method, size, compressedSize, offset: this.offset };
    this.central.push(record);
    const at = this.reserve(LOCAL_HEADER_BYTES + name.length);
    localHeader(this.block, at, record);
    this.append(entry.payload);
  }

  /**
   * Room for `size` bytes in the current block (a header and its name), counted as written; returns
   * where they go.
   */
  private reserve(size: number): number {
    if (this.used + size > this.block.length) this.flushBlock();
    if (size > this.block.length) this.block = Buffer.allocUnsafe(size);
    const at = this.used;
    this.used += size;
    this.offset += size;
    return at;
  }

  /** `chunk` after what was written: copied into the block when small, written as it is when not. */
  private append(chunk: Buffer): void {
    if (chunk.length >= DIRECT_BYTES) {
      this.flushBlock();
      this.send(chunk);
      this.offset += chunk.length;
      return;
    }
    const at = this.reserve(chunk.length);
    chunk.copy(this.block, at);
  }

  private flushBlock(): void {
    if (this.used === 0) return;
    // The stream keeps the block until it is written: the next one is new.
    this.send(this.block.subarray(0, this.used));
    this.block = Buffer.allocUnsafe(BLOCK_BYTES);
    this.used = 0;
  }

  private send(chunk: Buffer): void {
    if (!this.output.write(chunk)) this.full = true;
  }

  /** Waits while the file refuses more (the failure of a file that fails, which closes it, ends the wait). */
  private async drained(): Promise<void> {
    if (this.failure === undefined) await waitForDrain(this.output);
    this.full = false;
    if (this.failure !== undefined) throw this.failure;
  }

  private fail(error: unknown): void {
    this.failure ??=
      error instanceof ContentError
        ? error
        : new ContentError('ARCHIVE_INVALID', 'could not write the zip', { cause: error });
    this.wake?.();
  }
}

/**
 * Where `data` is deflated, if at all: data that deflate does not shrink is stored as it is, as git
 * archive does, and data whose first 4 KiB do not shrink (images, archives, video) is stored without
 * trying the rest. Small files deflate at once on this thread, where a round trip to the pool would
 * cost more than the work; larger ones on libuv's pool.
 */
function deflation(data: Buffer): 'none' | 'here' | 'pool' {
  if (data.length === 0 || looksIncompressible(data)) return 'none';
  return data.length <= SYNC_DEFLATE_BYTES ? 'here' : 'pool';
}

function prepareHere(name: Buffer, data: Buffer, deflated: boolean): Prepared {
  return prepared(
    name,
    data,
    deflated ? deflateRawSync(data, deflateOptions(data.length, LEVEL)) : undefined,
  );
}

/**
 * zlib's window, hash table, symbol buffer and output buffer sized to the data, never above their
 * defaults: each call allocates them anew, and the defaults (about 270 KiB, fresh pages from the
 * kernel whenever glibc has trimmed its heap) cost more than deflating a page of a few hundred
 * bytes. With a window past the data's end and a symbol buffer twice its length, deflate sees what
 * it would with the defaults: the same bytes came out on every file tried (the repository's own,
 * the bench folders), and the output stays a function of the data alone.
 */
function deflateOptions(size: number, level: number): ZlibOptions {
  const bits = Math.ceil(Math.log2(size + MIN_LOOKAHEAD));
  return {
    level,
    windowBits: Math.min(MAX_WINDOW_BITS, Math.max(MIN_WINDOW_BITS, bits)),
    memLevel: Math.min(MAX_MEM_LEVEL, Math.max(1, Math.ceil(Math.log2(size + 1)) - MEM_LEVEL_OFFSET)),
    chunkSize: Math.min(constants.Z_DEFAULT_CHUNK, Math.max(constants.Z_MIN_CHUNK, size + CHUNK_SLACK)),
  };
}

async function prepareOnPool(name: Buffer, data: Buffer): Promise<Prepared> {
  return prepared(name, data, await deflate(data));
}

function prepared(name: Buffer, data: Buffer, compressed: Buffer | undefined): Prepared {
  const deflated = compressed !== undefined && compressed.length < data.length;
  return {
    name,
    crc: crc32(data),
    method: deflated ? DEFLATE : STORE,
    size: data.length,
    payload: deflated ? compressed : data,
  };
}

function looksIncompressible(data: Buffer): boolean {
  if (data.length <= SAMPLE_BYTES) return false;
  const sample = data.subarray(0, SAMPLE_BYTES);
  return (
    deflateRawSync(sample, deflateOptions(SAMPLE_BYTES, 1)).length > sample.length * INCOMPRESSIBLE_RATIO
  );
}

function localHeader(block: Buffer, at: number, record: CentralRecord): void {
  block.writeUInt32LE(0x04034b50, at);
  writeEntryFields(block, at + 4, record);
  // Extra field length: zero.
  block.writeUInt16LE(0, at + 28);
  record.name.copy(block, at + LOCAL_HEADER_BYTES);
}

function centralHeader(block: Buffer, at: number, record: CentralRecord): void {
  block.writeUInt32LE(0x02014b50, at);
  block.writeUInt16LE(MADE_BY_UNIX, at + 4);
  writeEntryFields(block, at + 6, record);
  // Extra field, comment, disk number and internal attributes: all zero.
  block.fill(0, at + 30, at + 38);
  block.writeUInt32LE((FILE_MODE << 16) >>> 0, at + 38);
  block.writeUInt32LE(record.offset, at + 42);
  record.name.copy(block, at + CENTRAL_HEADER_BYTES);
}

/**
 * The 26 bytes both headers of an entry hold alike, from "version needed" to the name's length:
 * at offset 4 of the local header, 6 of the central directory's.
 */
function writeEntryFields(header: Buffer, at: number, record: CentralRecord): void {
  header.writeUInt16LE(VERSION_NEEDED, at);
  header.writeUInt16LE(UTF8_NAMES, at + 2);
  header.writeUInt16LE(record.method, at + 4);
  header.writeUInt16LE(DOS_TIME, at + 6);
  header.writeUInt16LE(DOS_DATE, at + 8);
  header.writeUInt32LE(record.crc, at + 10);
  header.writeUInt32LE(record.compressedSize, at + 14);
  header.writeUInt32LE(record.size, at + 18);
  header.writeUInt16LE(record.name.length, at + 22);
}

/** Zip64's end of central directory record: the entry count past 16 bits (APPNOTE 4.3.14). */
function zip64EndOfCentralDirectory(entries: number, size: number, offset: number): Buffer {
  const record = Buffer.alloc(56);
  record.writeUInt32LE(0x06064b50, 0);
  // The size of the rest of the record.
  record.writeBigUInt64LE(44n, 4);
  record.writeUInt16LE((3 << 8) | VERSION_ZIP64, 12);
  record.writeUInt16LE(VERSION_ZIP64, 14);
  // Disk numbers: zero.
  record.writeBigUInt64LE(BigInt(entries), 24);
  record.writeBigUInt64LE(BigInt(entries), 32);
  record.writeBigUInt64LE(BigInt(size), 40);
  record.writeBigUInt64LE(BigInt(offset), 48);
  return record;
}

/** Where the zip64 record is, just before the classic end record (APPNOTE 4.3.15). */
function zip64Locator(zip64EndOffset: number): Buffer {
  const record = Buffer.alloc(20);
  record.writeUInt32LE(0x07064b50, 0);
  record.writeBigUInt64LE(BigInt(zip64EndOffset), 8);
  record.writeUInt32LE(1, 16);
  return record;
}

/** The classic end record; with more entries than 16 bits hold, its count is 0xffff and zip64's counts. */
function endOfCentralDirectory(entries: number, size: number, offset: number): Buffer {
  const record = Buffer.alloc(22);
  record.writeUInt32LE(0x06054b50, 0);
  record.writeUInt16LE(entries, 8);
  record.writeUInt16LE(entries, 10);
  record.writeUInt32LE(size, 12);
  record.writeUInt32LE(offset, 16);
  return record;
}

function deflate(data: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    deflateRaw(data, { level: LEVEL }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}
