// A revision read from the response body as it arrives, never as one buffered string: the body is
// split into parts (the revision's own members, each page without its child pages, each file), each
// part parsed and checked with zod as soon as it is complete, and the page tree assembled from them.
// The service has no paging of a revision's pages (`GET .../content` and `.../content/pages` are one
// answer each), so this is what keeps a 100,000-page space readable: the size cap applies to one part
// (one page's markdown, say), and memory holds the parsed revision, not its text as well.
//
// Each chunk is decoded once (a character split between chunks waits for its last bytes), and its
// text is scanned for the brackets that delimit parts: a string's characters are skipped with
// String#indexOf up to its closing quote, and a part's text is a slice of the chunk's text, so the
// work per character is V8's own decoding, searching and JSON.parse. Pages and files are checked
// with schemas compiled on the first revision read (src/api/revision-part-schemas.ts).
import { StringDecoder } from 'node:string_decoder';
import type { z } from 'zod';
import { formatZodPath } from '../errors/format-zod-path.js';
import { ApiError } from './api-error.js';
import type { StreamedAnswer } from './http-transport.js';
import { redactSecrets } from './redact-secrets.js';
import { fileContent, pageContent } from './revision-content.js';
import { revisionPartSchemas } from './revision-part-schemas.js';
import type { RevisionFile } from './schemas/revision-file-schema.js';
import { type RevisionPage, revisionPageSchema } from './schemas/revision-page-schema.js';
import { type Revision, revisionSchema } from './schemas/revision-schema.js';

export interface RevisionStreamOptions {
  /** Largest part: the revision's own members, one page without its children, or one file. */
  maxPartBytes: number;
  /** Largest body in all: a bound on what a misbehaving server can make docsync hold. */
  maxTotalBytes: number;
  /** Keep of each page and file only the members docsync reads (src/api/revision-content.ts). */
  contentOnly?: boolean | undefined;
  /**
   * Each page, checked, as it arrives: what of it is kept (its child pages are set on what it
   * returns). A reader that takes a page's markdown elsewhere never holds every page's at once.
   */
  keepPage?: ((page: RevisionPage) => RevisionPage) | undefined;
  /** Asked after each chunk of the body; a promise it gives is awaited before the next is read. */
  pause?: (() => Promise<void> | undefined) | undefined;
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
/** Longest key kept: the others only need to be told apart from `pages` and `files`. */
const KEY_CHARS = 5;
/** UTF-8 bytes of one UTF-16 code unit, at most (a surrogate pair is 4 bytes for 2 units). */
const MAX_BYTES_PER_UNIT = 3;

/** What an open bracket of the body is. */
type Frame =
  | { kind: 'plain'; object: boolean; expectKey: boolean }
  | { kind: 'pages' | 'files'; owner: PartFrame }
  | PartFrame;

/** An object read as one part: the revision itself, a page or a file. */
interface PartFrame {
  kind: 'root' | 'page' | 'file';
  expectKey: boolean;
  /** The key just read, when it is `pages` or `files`. */
  key: 'pages' | 'files' | undefined;
  /** The part's text so far: slices of the chunks' text. */
  text: string;
  /** Its length, in UTF-16 code units. */
  units: number;
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
  limits: RevisionStreamOptions,
): Promise<Revision> {
  return readContentStream(body, answer, limits, revisionSchema);
}

/** Content whose page tree (and files) are read as parts: a revision, or `.../content/pages`. */
type ContentRoot = { pages?: RevisionPage[] | undefined; files?: RevisionFile[] | undefined };

/** As readRevisionStream, for any answer holding a page tree: `schema` checks the rest of it. */
export async function readContentStream<T extends ContentRoot>(
  body: AsyncIterable<Uint8Array>,
  answer: StreamedAnswer,
  limits: RevisionStreamOptions,
  schema: z.ZodType<T>,
): Promise<T> {
  const reader = new ContentReader(answer, limits, schema);
  for await (const chunk of body) {
    reader.push(
      Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength),
    );
    const paused = limits.pause?.();
    if (paused !== undefined) await paused;
  }
  return reader.end();
}

class ContentReader<T extends ContentRoot> {
  private readonly stack: Frame[] = [];
  private readonly decoder = new StringDecoder('utf8');
  private inString = false;
  private escaped = false;
  /** Where the key being read starts in the current text, when it is a key of a part; else -1. */
  private keyFrom = -1;
  /** The key's characters from earlier chunks (up to KEY_CHARS + 1). */
  private keyHead = '';
  private total = 0;
  private revision: T | undefined;
  private started = false;

  constructor(
    private readonly answer: StreamedAnswer,
    private readonly limits: RevisionStreamOptions,
    private readonly schema: z.ZodType<T>,
  ) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.total > this.limits.maxTotalBytes) throw this.tooLarge(this.limits.maxTotalBytes);
    this.scan(this.decoder.write(chunk));
  }

  end(): T {
    // Bytes of a character the body never finished: text, which no JSON value can end with.
    const rest = this.decoder.end();
    if (rest !== '') this.scan(rest);
    if (this.revision === undefined)
      throw this.invalid(this.started ? 'the body was cut short' : 'the body is empty');
    return this.revision;
  }

  private scan(text: string): void {
    const length = text.length;
    // Where the collecting part's text of this chunk starts.
    let from = 0;
    let i = 0;
    if (this.keyFrom !== -1) this.keyFrom = 0;
    while (i < length) {
      if (this.inString) {
        // A string is skipped to its closing quote with indexOf: a quote is the string's end when
        // an even number of backslashes comes before it (counted from `i`: what comes before was
        // read already, an escape carried over from the last chunk included).
        if (this.escaped) {
          this.escaped = false;
          i += 1;
          continue;
        }
        const quote = text.indexOf('"', i);
        const end = quote === -1 ? length : quote;
        let backslashes = 0;
        while (end - backslashes > i && text.charCodeAt(end - backslashes - 1) === BACKSLASH)
          backslashes += 1;
        if (quote === -1) {
          this.escaped = backslashes % 2 === 1;
          i = length;
        } else if (backslashes % 2 === 1) i = quote + 1;
        else {
          this.endString(text, quote);
          i = quote + 1;
        }
        continue;
      }
      const unit = text.charCodeAt(i);
      switch (unit) {
        case QUOTE:
          if (this.stack.length === 0)
            throw this.started ? this.invalid('data after the revision') : this.notAnObject();
          this.notAnItem();
          this.startString(i + 1);
          break;
        case OPEN_OBJECT:
          from = this.openObject(from, i);
          break;
        case OPEN_ARRAY:
          from = this.openArray(text, from, i);
          break;
        case CLOSE_OBJECT:
        case CLOSE_ARRAY:
          from = this.close(text, from, i);
          break;
        case COMMA: {
          const top = this.stack.at(-1);
          if (top !== undefined && 'expectKey' in top) top.expectKey = isObjectFrame(top);
          break;
        }
        case COLON:
          break;
        default:
          if (!isWhitespace(unit)) {
            if (this.revision !== undefined) throw this.invalid('data after the revision');
            if (!this.started) throw this.invalid('the body is not JSON');
            this.notAnItem();
          }
      }
      i += 1;
    }
    if (this.keyFrom !== -1) this.keyHead = (this.keyHead + text.slice(this.keyFrom)).slice(0, KEY_CHARS + 1);
    const part = this.collecting();
    if (part !== undefined && from < length) this.collect(part, text, from, length);
  }

  /** Pages and files are objects: anything else in their arrays is refused, as the schema would. */
  private notAnItem(): void {
    const top = this.stack.at(-1);
    if (top !== undefined && (top.kind === 'pages' || top.kind === 'files'))
      throw this.misshapen(`${top.kind} holds an item that is not an object`);
  }

  private startString(at: number): void {
    this.inString = true;
    const top = this.stack.at(-1);
    this.keyFrom = top !== undefined && isPart(top) && top.expectKey ? at : -1;
    this.keyHead = '';
  }

  private endString(text: string, quote: number): void {
    this.inString = false;
    const keyFrom = this.keyFrom;
    this.keyFrom = -1;
    const top = this.stack.at(-1);
    if (top === undefined || !('expectKey' in top) || !top.expectKey) return;
    top.expectKey = false;
    if (!isPart(top)) return;
    // Compared as written: a key spelt with escapes is not split out, and parses with its part.
    const key = this.keyHead + text.slice(keyFrom, quote);
    top.key =
      top.kind !== 'file' && key === 'pages'
        ? 'pages'
        : top.kind === 'root' && key === 'files'
          ? 'files'
          : undefined;
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

  private openArray(text: string, from: number, i: number): number {
    const top = this.stack.at(-1);
    if (top === undefined) throw this.notAnObject();
    this.notAnItem();
    // An empty array (a page without child pages: most of them) stays in its part's text.
    if (isPart(top) && top.key !== undefined && !closesAt(text, i + 1)) {
      // The part's text up to and with `[`: its pages or files come as parts of their own, and
      // the part reads on from the closing `]`, so it parses with an empty array there.
      this.collect(top, text, from, i + 1);
      top.collecting = false;
      top.items = 0;
      this.stack.push({ kind: top.key, owner: top });
      top.key = undefined;
      return i + 1;
    }
    if (isPart(top)) top.key = undefined;
    this.stack.push({ kind: 'plain', object: false, expectKey: false });
    return from;
  }

  private close(text: string, from: number, i: number): number {
    const frame = this.stack.pop();
    const wanted = text.charCodeAt(i) === CLOSE_OBJECT;
    if (frame === undefined) throw this.invalid(`unexpected ${wanted ? '}' : ']'}`);
    if (frame.kind === 'pages' || frame.kind === 'files') {
      if (wanted) throw this.invalid('unbalanced brackets');
      frame.owner.collecting = true;
      return i;
    }
    if (isObjectFrame(frame) !== wanted) throw this.invalid('unbalanced brackets');
    if (!isPart(frame)) return from;
    this.collect(frame, text, from, i + 1);
    this.finish(frame);
    return i + 1;
  }

  /** The part whose text is being kept: the innermost part, unless its arrays are being read. */
  private collecting(): PartFrame | undefined {
    for (let n = this.stack.length - 1; n >= 0; n -= 1) {
      const frame = this.stack[n] as Frame;
      if (isPart(frame)) return frame.collecting ? frame : undefined;
      if (frame.kind !== 'plain') return undefined;
    }
    return undefined;
  }

  /**
   * Keeps the part's text `from` to `to` of `text`: a slice, which holds the chunk's text until the
   * part is parsed (one chunk per part open at once, whatever the size of the body). The cap is
   * checked in code units as the text comes (each is at least one byte), and in bytes once whole.
   */
  private collect(part: PartFrame, text: string, from: number, to: number): void {
    if (to <= from || !part.collecting) return;
    part.units += to - from;
    if (part.units > this.limits.maxPartBytes) throw this.tooLarge(this.limits.maxPartBytes, part.at);
    part.text = part.text === '' ? text.slice(from, to) : part.text + text.slice(from, to);
  }

  private finish(part: PartFrame): void {
    const text = part.text;
    part.text = '';
    const max = this.limits.maxPartBytes;
    if (part.units * MAX_BYTES_PER_UNIT > max && Buffer.byteLength(text, 'utf8') > max)
      throw this.tooLarge(max, part.at);
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
      const file = this.check(revisionPartSchemas().file, value, part.at);
      parent?.files.push(this.limits.contentOnly === true ? fileContent(file) : file);
      return;
    }
    if (part.kind === 'page') {
      // Its child pages were read apart (an empty array is left in its text); a part that does not
      // pass the compiled check is checked by the page's own schema, for its issues.
      const checked = revisionPartSchemas().page.safeParse(value);
      const whole = checked.success ? checked.data : this.check(revisionPageSchema, value, part.at);
      const kept = this.limits.contentOnly === true ? pageContent(whole) : whole;
      const page = this.limits.keepPage === undefined ? kept : this.limits.keepPage(kept);
      if (page.pages?.length === 0) page.pages = part.children;
      parent?.children.push(page);
      return;
    }
    const revision = this.check(this.schema, value, '');
    if (revision.pages?.length === 0) revision.pages = part.children;
    if (revision.files?.length === 0) revision.files = part.files;
    this.revision = revision;
  }

  private check<S>(schema: z.ZodType<S>, value: unknown, at: string): S {
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

  /**
   * A body that is not well-formed JSON (a proxy's HTML page sent with 200, a body cut short): a
   * passing fault of the way there, retried as a 5xx is. JSON of the wrong shape is `misshapen`.
   */
  private invalid(reason: string, cause?: unknown): ApiError {
    return this.misshapen(reason, cause, true);
  }

  /** JSON, but a string, an array or a number where the revision's object is. */
  private notAnObject(): ApiError {
    return this.misshapen('the body is not a JSON object');
  }

  /** Well-formed JSON the service should not have sent: asking again would get the same. */
  private misshapen(reason: string, cause?: unknown, retryable = false): ApiError {
    const { method, path } = this.answer;
    return this.error({
      code: 'API_RESPONSE_INVALID',
      message: `${method} ${path}: response body is not a revision: ${reason}`,
      retryable,
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
    retryable?: boolean;
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
    text: '',
    units: 0,
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

function isWhitespace(unit: number): boolean {
  return unit === 0x20 || unit === 0x0a || unit === 0x0d || unit === 0x09;
}

/** Whether `text` from `at` is whitespace then `]`: an empty array, known within this text. */
function closesAt(text: string, at: number): boolean {
  for (let i = at; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit === CLOSE_ARRAY) return true;
    if (!isWhitespace(unit)) return false;
  }
  return false;
}
