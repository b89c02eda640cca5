// A revision read from the response body as it arrives, never as one buffered string: the body is
// split into parts (the revision's own members, each page without its child pages, each file), each
// part parsed and checked with zod as soon as it is complete, and the page tree assembled from them.
// The service has no paging of a revision's pages (`GET .../content` and `.../content/pages` are one
// answer each), so this is what keeps a 100,000-page space readable: the size cap applies to one part
// (one page's markdown, say), and memory holds the parsed revision, not its text as well.
import type { z } from 'zod';
import { formatZodPath } from '../errors/format-zod-path.js';
import { ApiError } from './api-error.js';
import type { StreamedAnswer } from './http-transport.js';
import { redactSecrets } from './redact-secrets.js';
import { type RevisionFile, revisionFileSchema } from './schemas/revision-file-schema.js';
import { type RevisionPage, revisionPageSchema } from './schemas/revision-page-schema.js';
import { type Revision, revisionSchema } from './schemas/revision-schema.js';

export interface RevisionStreamLimits {
  /** Largest part: the revision's own members, one page without its children, or one file. */
  maxPartBytes: number;
  /** Largest body in all: a bound on what a misbehaving server can make docsync hold. */
  maxTotalBytes: number;
}

const ISSUES_IN_MESSAGE = 3;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const PAGES = Buffer.from('pages');
const FILES = Buffer.from('files');
/** Longest key compared: the others only need to be told apart from `pages` and `files`. */
const KEY_BYTES = 5;

/** What an open bracket of the body is. */
type Frame =
  | { kind: 'plain'; object: boolean; expectKey: boolean }
  | { kind: 'pages' | 'files'; owner: PartFrame }
  | PartFrame;

/** An object read as one part: the revision itself, a page or a file. */
interface PartFrame {
  kind: 'root' | 'page' | 'file';
  expectKey: boolean;
  /** The key just read (up to KEY_BYTES bytes), when it is `pages` or `files`. */
  key: 'pages' | 'files' | undefined;
  segments: Buffer[];
  bytes: number;
  /** Suspended while its pages or files array is read: those are parts of their own. */
  collecting: boolean;
  /** `pages[3].pages[0]`: where it is, for the errors. */
  at: string;
  /** A page's or the revision's child pages, in order, as they complete. */
  children: RevisionPage[];
  files: RevisionFile[];
  /** Items of its pages or files array seen so far, for `at`. */
  items: number;
}

/**
 * Reads a revision (the body of `GET .../content`) from `body`. Fails with API_RESPONSE_TOO_LARGE
 * past `limits`, API_RESPONSE_INVALID when the body is not JSON, not an object, cut short, or a
 * part does not match its schema (the issues name where: `pages[3].pages[0].title`).
 */
export function readRevisionStream(
  body: AsyncIterable<Uint8Array>,
  answer: StreamedAnswer,
  limits: RevisionStreamLimits,
): Promise<Revision> {
  return readContentStream(body, answer, limits, revisionSchema);
}

/** Content whose page tree (and files) are read as parts: a revision, or `.../content/pages`. */
type ContentRoot = { pages?: RevisionPage[] | undefined; files?: RevisionFile[] | undefined };

/** As readRevisionStream, for any answer holding a page tree: `schema` checks the rest of it. */
export async function readContentStream<T extends ContentRoot>(
  body: AsyncIterable<Uint8Array>,
  answer: StreamedAnswer,
  limits: RevisionStreamLimits,
  schema: z.ZodType<T>,
): Promise<T> {
  const reader = new ContentReader(answer, limits, schema);
  for await (const chunk of body) reader.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return reader.end();
}

class ContentReader<T extends ContentRoot> {
  private readonly stack: Frame[] = [];
  private inString = false;
  private escaped = false;
  /** Bytes of the string being read, when it is a key of a part (up to KEY_BYTES + 1). */
  private keyBytes: number[] | undefined;
  private total = 0;
  private revision: T | undefined;
  private started = false;

  constructor(
    private readonly answer: StreamedAnswer,
    private readonly limits: RevisionStreamLimits,
    private readonly schema: z.ZodType<T>,
  ) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.total > this.limits.maxTotalBytes) throw this.tooLarge(this.limits.maxTotalBytes);
    // Where the collecting part's bytes of this chunk start.
    let from = 0;
    for (let i = 0; i < chunk.length; i += 1) {
      const byte = chunk[i] as number;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) this.endString();
        else if (this.keyBytes !== undefined && this.keyBytes.length <= KEY_BYTES) this.keyBytes.push(byte);
        continue;
      }
      switch (byte) {
        case QUOTE:
          if (this.stack.length === 0)
            throw this.invalid(this.started ? 'data after the revision' : 'the body is not a JSON object');
          this.notAnItem();
          this.startString();
          break;
        case OPEN_OBJECT:
          from = this.openObject(from, i);
          break;
        case OPEN_ARRAY:
          from = this.openArray(chunk, from, i);
          break;
        case CLOSE_OBJECT:
        case CLOSE_ARRAY:
          from = this.close(chunk, from, i);
          break;
        case COMMA: {
          const top = this.stack.at(-1);
          if (top !== undefined && 'expectKey' in top) top.expectKey = isObjectFrame(top);
          break;
        }
        case COLON:
          break;
        default:
          if (this.revision !== undefined && !isWhitespace(byte))
            throw this.invalid('data after the revision');
          if (!this.started && !isWhitespace(byte)) throw this.invalid('the body is not a JSON object');
          if (!isWhitespace(byte)) this.notAnItem();
      }
    }
    const part = this.collecting();
    if (part !== undefined && from < chunk.length) this.collect(part, chunk, from, chunk.length);
  }

  end(): T {
    if (this.revision === undefined)
      throw this.invalid(this.started ? 'the body was cut short' : 'the body is empty');
    return this.revision;
  }

  /** Pages and files are objects: anything else in their arrays is refused, as the schema would. */
  private notAnItem(): void {
    const top = this.stack.at(-1);
    if (top !== undefined && (top.kind === 'pages' || top.kind === 'files'))
      throw this.invalid(`${top.kind} holds an item that is not an object`);
  }

  private startString(): void {
    this.inString = true;
    const top = this.stack.at(-1);
    this.keyBytes = top !== undefined && isPart(top) && top.expectKey ? [] : undefined;
  }

  private endString(): void {
    this.inString = false;
    const top = this.stack.at(-1);
    if (top === undefined || !('expectKey' in top) || !top.expectKey) return;
    top.expectKey = false;
    if (isPart(top)) {
      const key = Buffer.from(this.keyBytes ?? []);
      top.key =
        top.kind !== 'file' && key.equals(PAGES)
          ? 'pages'
          : top.kind === 'root' && key.equals(FILES)
            ? 'files'
            : undefined;
    }
    this.keyBytes = undefined;
  }

  private openObject(from: number, i: number): number {
    const top = this.stack.at(-1);
    if (top === undefined) {
      if (this.started) throw this.invalid('data after the revision');
      this.started = true;
      this.stack.push(newPart('root', ''));
      return i;
    }
    if (top.kind === 'pages' || top.kind === 'files') {
      const owner = top.owner;
      const at = `${owner.at === '' ? '' : `${owner.at}.`}${top.kind}[${owner.items}]`;
      owner.items += 1;
      this.stack.push(newPart(top.kind === 'pages' ? 'page' : 'file', at));
      return i;
    }
    if (isPart(top)) top.key = undefined;
    this.stack.push({ kind: 'plain', object: true, expectKey: true });
    return from;
  }

  private openArray(chunk: Buffer, from: number, i: number): number {
    const top = this.stack.at(-1);
    if (top === undefined) throw this.invalid('the body is not a JSON object');
    this.notAnItem();
    if (isPart(top) && top.key !== undefined) {
      // The part's bytes up to and with `[`: its pages or files come as parts of their own, and
      // the part reads on from the closing `]`, so it parses with an empty array there.
      this.collect(top, chunk, from, i + 1);
      top.collecting = false;
      top.items = 0;
      this.stack.push({ kind: top.key, owner: top });
      top.key = undefined;
      return i + 1;
    }
    this.stack.push({ kind: 'plain', object: false, expectKey: false });
    return from;
  }

  private close(chunk: Buffer, from: number, i: number): number {
    const frame = this.stack.pop();
    const wanted = chunk[i] === CLOSE_OBJECT;
    if (frame === undefined) throw this.invalid(`unexpected ${wanted ? '}' : ']'}`);
    if (frame.kind === 'pages' || frame.kind === 'files') {
      if (wanted) throw this.invalid('unbalanced brackets');
      frame.owner.collecting = true;
      return i;
    }
    if (isObjectFrame(frame) !== wanted) throw this.invalid('unbalanced brackets');
    if (!isPart(frame)) return from;
    this.collect(frame, chunk, from, i + 1);
    this.finish(frame);
    return i + 1;
  }

  /** The part whose bytes are being kept: the innermost part, unless its arrays are being read. */
  private collecting(): PartFrame | undefined {
    for (let n = this.stack.length - 1; n >= 0; n -= 1) {
      const frame = this.stack[n] as Frame;
      if (isPart(frame)) return frame.collecting ? frame : undefined;
      if (frame.kind !== 'plain') return undefined;
    }
    return undefined;
  }

  private collect(part: PartFrame, chunk: Buffer, from: number, to: number): void {
    if (to <= from || !part.collecting) return;
    part.bytes += to - from;
    if (part.bytes > this.limits.maxPartBytes) throw this.tooLarge(this.limits.maxPartBytes, part.at);
    // A copy: keeping a view would keep the whole chunk alive for a few bytes of it.
    part.segments.push(Buffer.from(chunk.subarray(from, to)));
  }

  private finish(part: PartFrame): void {
    const text = Buffer.concat(part.segments, part.bytes).toString('utf8');
    part.segments = [];
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw this.invalid(`${part.at || 'the revision'} is not JSON`, error);
    }
    let parent: PartFrame | undefined;
    for (let n = this.stack.length - 1; parent === undefined && n >= 0; n -= 1) {
      const frame = this.stack[n] as Frame;
      if (isPart(frame)) parent = frame;
    }
    if (part.kind === 'file') {
      parent?.files.push(this.check(revisionFileSchema, value, part.at));
      return;
    }
    if (part.kind === 'page') {
      const page = this.check(revisionPageSchema, value, part.at);
      if (page.pages !== undefined) page.pages = part.children;
      parent?.children.push(page);
      return;
    }
    const revision = this.check(this.schema, value, '');
    if (revision.pages !== undefined) revision.pages = part.children;
    if (revision.files !== undefined) revision.files = part.files;
    this.revision = revision;
  }

  private check<T>(schema: z.ZodType<T>, value: unknown, at: string): T {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    const issues = result.error.issues.map((issue) => {
      const inner = formatZodPath(issue.path);
      const where = at === '' ? inner : inner === '' ? at : `${at}.${inner}`;
      return `${where || '(body)'}: ${redactSecrets(issue.message, this.answer.secrets)}`;
    });
    const shown = issues.slice(0, ISSUES_IN_MESSAGE).join('; ');
    const more = issues.length > ISSUES_IN_MESSAGE ? ` (+${issues.length - ISSUES_IN_MESSAGE} more)` : '';
    const { method, path } = this.answer;
    throw this.error({
      code: 'API_RESPONSE_INVALID',
      message: `${method} ${path}: response does not match the schema: ${shown}${more}`,
      issues,
    });
  }

  private invalid(reason: string, cause?: unknown): ApiError {
    const { method, path } = this.answer;
    return this.error({
      code: 'API_RESPONSE_INVALID',
      message: `${method} ${path}: response body is not a revision: ${reason}`,
      ...(cause instanceof Error
        ? { cause: new Error(redactSecrets(cause.message, this.answer.secrets)) }
        : {}),
    });
  }

  private tooLarge(maxBytes: number, at?: string): ApiError {
    const { method, path, status } = this.answer;
    const what = at === undefined ? 'response' : `${at || 'the revision'} of the response`;
    return this.error({
      code: 'API_RESPONSE_TOO_LARGE',
      message: `${method} ${path}: ${status} ${what} larger than ${maxBytes} bytes`,
    });
  }

  private error(init: {
    code: 'API_RESPONSE_INVALID' | 'API_RESPONSE_TOO_LARGE';
    message: string;
    issues?: string[];
    cause?: unknown;
  }): ApiError {
    const { method, path, status, requestId } = this.answer;
    return new ApiError({ ...init, method, path, status, ...(requestId === undefined ? {} : { requestId }) });
  }
}

function newPart(kind: PartFrame['kind'], at: string): PartFrame {
  return {
    kind,
    expectKey: true,
    key: undefined,
    segments: [],
    bytes: 0,
    collecting: true,
    at,
    children: [],
    files: [],
    items: 0,
  };
}

function isPart(frame: Frame): frame is PartFrame {
  return frame.kind === 'root' || frame.kind === 'page' || frame.kind === 'file';
}

function isObjectFrame(frame: Frame): boolean {
  return isPart(frame) || (frame.kind === 'plain' && frame.object);
}

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}
