// Writes a bundle zip to a file, one entry after another, with flat memory and entries deflated in
// parallel on libuv's pool. yazl (which the tests' test/support/write-zip.ts uses) is not used here:
// its stream entries are deflated one after another through a new zlib stream each (twice git
// archive's time on 10,000 small files), and its buffer entries stay in memory until the end. Same
// fixed time and mode as the tests' write-zip, so equal entries give equal bytes.
import { createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import { crc32, deflateRaw, deflateRawSync } from 'node:zlib';
import { ContentError } from './content-error.js';
import { waitForDrain } from './wait-for-drain.js';

const MIB = 1024 * 1024;
/** Content added but not yet in the file; one entry larger than this is still taken alone. */
const WINDOW_BYTES = 16 * MIB;
/** Entries added but not yet in the file: enough to keep libuv's pool of four busy. */
const WINDOW_ENTRIES = 16;
const FILE_BUFFER_BYTES = 1 * MIB;
const LEVEL = 6;
const SYNC_DEFLATE_BYTES = 64 * 1024;
const SAMPLE_BYTES = 4 * 1024;
const INCOMPRESSIBLE_RATIO = 0.95;
// More than 65,535 entries take zip64's end records (a 50,000-page docs folder has more files than
// that with its images); offsets and sizes stay 32-bit, so a bundle holds at most 4 GiB.
const ZIP32_MAX_ENTRIES = 0xffff;
const MAX_OFFSET = 0xffffffff;
const VERSION_ZIP64 = 45;

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
  private queue: Promise<void> = Promise.resolve();
  private offset = 0;
  private inFlightBytes = 0;
  private inFlightCount = 0;
  private failure: unknown;
  private wake: (() => void) | undefined;

  constructor(readonly outFile: string) {
    this.output = createWriteStream(outFile, { highWaterMark: FILE_BUFFER_BYTES });
    this.output.on('error', (error) => this.fail(error));
  }

  /**
   * Adds a file named `name` (normalised, posix). Its deflate starts at once; it is written after the
   * entries added before it. Resolves when the writer can take the next one.
   */
  async add(name: string, data: Buffer): Promise<void> {
    if (this.failure !== undefined) throw this.failure;
    this.inFlightBytes += data.length;
    this.inFlightCount += 1;
    const prepared = prepare(name, data);
    prepared.catch(() => {});
    this.queue = this.queue.then(async () => {
      const entry = await prepared;
      if (this.failure === undefined) await this.writeEntry(entry);
      this.inFlightBytes -= entry.size;
      this.inFlightCount -= 1;
      this.wake?.();
    });
    this.queue.catch((error: unknown) => this.fail(error));
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
    const start = this.offset;
    for (const record of this.central) await this.write(centralHeader(record), record.name);
    const entries = this.central.length;
    const size = this.offset - start;
    if (entries >= ZIP32_MAX_ENTRIES) {
      const zip64End = this.offset;
      await this.write(zip64EndOfCentralDirectory(entries, size, start), zip64Locator(zip64End));
    }
    await this.write(endOfCentralDirectory(Math.min(entries, ZIP32_MAX_ENTRIES), size, start));
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

  private overWindow(lastSize: number): boolean {
    if (this.inFlightCount <= 1) return false;
    return (
      this.inFlightCount > WINDOW_ENTRIES ||
      (this.inFlightBytes > WINDOW_BYTES && this.inFlightBytes > lastSize)
    );
  }

  private async writeEntry(entry: Prepared): Promise<void> {
    const compressedSize = entry.payload.length;
    if (this.offset + 30 + entry.name.length + compressedSize > MAX_OFFSET) {
      throw new ContentError('ARCHIVE_TOO_LARGE', 'a bundle zip holds at most 4 GiB');
    }
    // Named fields, not a spread: the record stays to the end, the payload must not.
    const { name, crc, method, size } = entry;
    const record: CentralRecord = { name, crc, method, size, compressedSize, offset: this.offset };
    this.central.push(record);
    await this.write(localHeader(record), name, entry.payload);
  }

  private async write(...chunks: Buffer[]): Promise<void> {
    let room = true;
    for (const chunk of chunks) {
      room = this.output.write(chunk);
      this.offset += chunk.length;
    }
    if (!room && this.failure === undefined) await waitForDrain(this.output);
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
 * CRC and deflate; data that deflate does not shrink is stored as it is, as git archive does. Data
 * whose first 4 KiB do not shrink (images, archives, video) is stored without trying the rest. Small
 * files deflate at once on this thread, where a round trip to the pool would cost more than the work.
 */
async function prepare(name: string, data: Buffer): Promise<Prepared> {
  let compressed: Buffer | undefined;
  if (data.length > 0 && !looksIncompressible(data)) {
    compressed =
      data.length <= SYNC_DEFLATE_BYTES ? deflateRawSync(data, { level: LEVEL }) : await deflate(data);
  }
  const deflated = compressed !== undefined && compressed.length < data.length;
  return {
    name: Buffer.from(name, 'utf8'),
    crc: crc32(data),
    method: deflated ? DEFLATE : STORE,
    size: data.length,
    payload: deflated ? (compressed ?? data) : data,
  };
}

function looksIncompressible(data: Buffer): boolean {
  if (data.length <= SAMPLE_BYTES) return false;
  const sample = data.subarray(0, SAMPLE_BYTES);
  return deflateRawSync(sample, { level: 1 }).length > sample.length * INCOMPRESSIBLE_RATIO;
}

function localHeader(record: CentralRecord): Buffer {
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  writeEntryFields(header, 4, record);
  // Extra field length: zero.
  return header;
}

function centralHeader(record: CentralRecord): Buffer {
  const header = Buffer.alloc(46);
  header.writeUInt32LE(0x02014b50, 0);
  header.writeUInt16LE(MADE_BY_UNIX, 4);
  writeEntryFields(header, 6, record);
  // Extra field, comment, disk number and internal attributes: all zero.
  header.writeUInt32LE((FILE_MODE << 16) >>> 0, 38);
  header.writeUInt32LE(record.offset, 42);
  return header;
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
