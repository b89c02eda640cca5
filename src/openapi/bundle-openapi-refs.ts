// Bundles the files a document's `$ref`s name into the document: each file is read through the
// source (which keeps it where the document came from) within maxRefFiles and maxBytes; the first
// place that refers to a value receives a copy, and every other reference to it becomes an
// internal pointer, percent-encoded so that it is a valid URI reference.
import { posix } from 'node:path';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';
import { fragmentTokens, pointerRef, valueAt } from './json-pointer.js';
import { OpenApiInvalidError, type OpenApiProblem } from './openapi-invalid-error.js';
import {
  type Container,
  childPosition,
  isReference,
  itemPosition,
  type Position,
  type PositionRules,
  type Trail,
  tokensOf,
} from './openapi-positions.js';
import { OpenApiSourceError } from './openapi-source-error.js';
import type { OpenApiSourceReader } from './openapi-source-reader.js';
import { depthBeyond, OPENAPI_TEXT_LIMITS, parseOpenApiText } from './parse-openapi-text.js';
import { tooLarge } from './url-source-reader.js';

export interface BundleLimits {
  /** Bytes of the document and the files its `$ref`s name, together. */
  maxBytes: number;
  /** Files the `$ref`s may name, beyond the document itself. */
  maxRefFiles: number;
}

/** Files read at the same time: enough to hide latency, few enough to be polite to a server. */
const PARALLEL_READS = 8;

/** A value to look for references in, with where it sits in the bundle and which file it came from. */
interface Item {
  node: Container;
  parent: Container | undefined;
  trail: Trail | undefined;
  position: Position;
  /** The URL of the file the value was written in: its relative `$ref`s resolve against it. */
  base: string;
  /** Where the value is in that file, for problems: the same as `trail` in the document itself. */
  fileTrail: Trail | undefined;
  /** Keys of `node` already walked (siblings of a `$ref` written in another file). */
  walked?: ReadonlySet<string>;
}

/** Whether any reference (data and names aside) names another file than the document. */
export function hasExternalRef(document: Record<string, unknown>, rules: PositionRules): boolean {
  const sites: Item[] = [];
  const root = {
    node: document,
    parent: undefined,
    trail: undefined,
    position: 'node',
    base: '',
    fileTrail: undefined,
  } as const;
  collect(root, rules, '', sites, 1);
  return sites.length > 0;
}

/**
 * Replaces, in `document`, every reference to another file by the value it names (or by a pointer
 * to where that value was placed before). Returns how many files were read.
 */
export async function bundleOpenApiRefs(
  document: Record<string, unknown>,
  reader: OpenApiSourceReader,
  options: BundleLimits & { rules: PositionRules; documentBytes: number },
  signal: AbortSignal,
): Promise<{ files: number }> {
  const rootFile = withoutHash(reader.location);
  const files = new Map<string, unknown>();
  /** Target (`file#pointer`) → where its copy was placed. */
  const placements = new Map<string, string[]>();
  let bytes = options.documentBytes;
  const shown = (file: string) => shownFile(rootFile, file);
  const invalid = (problem: OpenApiProblem) => new OpenApiInvalidError(reader.label, [problem]);

  const load = async (file: string) => {
    const data = await reader.readRef(file, signal);
    bytes += data.length;
    if (bytes > options.maxBytes)
      throw tooLarge(`${reader.label} with the files its $refs name`, options.maxBytes);
    const parsed = parseOpenApiText(data.toString('utf8'));
    if (!parsed.ok) throw invalid({ file: shown(file), pointer: '', message: parsed.problem.message });
    files.set(file, parsed.value);
  };

  let frontier: Item[] = [
    {
      node: document,
      parent: undefined,
      trail: undefined,
      position: 'node',
      base: rootFile,
      fileTrail: undefined,
    },
  ];
  while (frontier.length > 0) {
    signal.throwIfAborted();
    const sites: Item[] = [];
    for (const item of frontier) collect(item, options.rules, rootFile, sites, Number.POSITIVE_INFINITY);
    const targets = sites.map((site) => targetOf(site, rootFile, reader));
    const missing = [...new Set(targets.map((target) => target.file))].filter(
      (file) => file !== rootFile && !files.has(file),
    );
    if (files.size + missing.length > options.maxRefFiles) {
      throw new OpenApiSourceError(
        'SOURCE_TOO_LARGE',
        `${reader.label}: its $refs name more than ${options.maxRefFiles} files; raise maxRefFiles of the spec if they should all be read`,
        { setting: 'maxRefFiles' },
      );
    }
    for (let start = 0; start < missing.length; start += PARALLEL_READS)
      await Promise.all(missing.slice(start, start + PARALLEL_READS).map(load));

    frontier = [];
    sites.forEach((site, index) => {
      const target = targets[index] as Target;
      const holder = site.node as Record<string, unknown>;
      if (target.file === rootFile) {
        holder.$ref = pointerRef(target.tokens);
        return;
      }
      const key = `${target.file}${pointerRef(target.tokens)}`;
      const placed = placements.get(key);
      if (placed !== undefined) {
        holder.$ref = pointerRef(placed);
        return;
      }
      const found = valueAt(files.get(target.file), target.tokens);
      if (!found.found) {
        throw invalid({
          ...whereOf(site, rootFile),
          message: `has a $ref to ${JSON.stringify(holder.$ref)}, but ${shown(target.file)} has nothing at #${target.fragment}: check the pointer`,
        });
      }
      const copy = structuredClone(found.value);
      const siblings = Object.keys(holder).filter((name) => name !== '$ref');
      const merged =
        isPlainObject(copy) && siblings.length > 0
          ? { ...copy, ...Object.fromEntries(siblings.map((name) => [name, holder[name]])) }
          : copy;
      const container = site.parent as Container;
      const at = (site.trail as Trail).key;
      if (Array.isArray(container)) container[Number(at)] = merged;
      else container[at] = merged;
      placements.set(key, tokensOf(site.trail));
      if (typeof merged === 'object' && merged !== null) {
        frontier.push({
          node: merged as Container,
          parent: container,
          trail: site.trail,
          position: site.position,
          base: target.file,
          fileTrail: target.tokens.reduce<Trail | undefined>((up, key) => ({ up, key }), undefined),
          ...(siblings.length > 0 && isPlainObject(copy) ? { walked: new Set(siblings) } : {}),
        });
      }
    });
  }
  if (depthBeyond(document, OPENAPI_TEXT_LIMITS.maxDepth)) {
    throw invalid({
      pointer: '',
      message: `nests objects and lists more than ${OPENAPI_TEXT_LIMITS.maxDepth} deep once its $refs are bundled: flatten the schemas that nest deepest`,
    });
  }
  return { files: files.size };
}

interface Target {
  file: string;
  fragment: string;
  tokens: string[];
}

/** Where a reference is written, as a problem names it: its pointer, and its file when not the document. */
function whereOf(site: Item, rootFile: string): Pick<OpenApiProblem, 'pointer' | 'file'> {
  const pointer = tokensPointer(site.fileTrail);
  return site.base === rootFile ? { pointer } : { pointer, file: shownFile(rootFile, site.base) };
}

function targetOf(site: Item, rootFile: string, reader: OpenApiSourceReader): Target {
  const ref = (site.node as Record<string, unknown>).$ref as string;
  let url: URL;
  try {
    url = new URL(ref, site.base);
  } catch {
    throw new OpenApiInvalidError(reader.label, [
      {
        ...whereOf(site, rootFile),
        message: `has a $ref ${JSON.stringify(ref)} that is not a URI reference`,
      },
    ]);
  }
  const fragment = url.hash.slice(1);
  const tokens = fragmentTokens(fragment);
  if (tokens === undefined) {
    throw new OpenApiInvalidError(reader.label, [
      {
        ...whereOf(site, rootFile),
        message: `has a $ref ${JSON.stringify(ref)} whose fragment is not a JSON pointer: write #/path/to/the/value`,
      },
    ]);
  }
  return { file: withoutHash(url.href), fragment, tokens };
}

/**
 * Pushes onto `sites` the references below `item` that name another file than `rootFile` (or, in
 * a file other than the document, anything), depth first in key order, at most `limit` of them.
 */
function collect(item: Item, rules: PositionRules, rootFile: string, sites: Item[], limit: number): void {
  const stack: Item[] = [item];
  while (stack.length > 0 && sites.length < limit) {
    const current = stack.pop() as Item;
    const { node, position } = current;
    if (position === 'data') continue;
    const below: Item[] = [];
    if (Array.isArray(node)) {
      const inner = itemPosition(position);
      node.forEach((child, index) => {
        if (typeof child === 'object' && child !== null)
          below.push({
            node: child as Container,
            parent: node,
            trail: { up: current.trail, key: String(index) },
            position: inner,
            base: current.base,
            fileTrail: { up: current.fileTrail, key: String(index) },
          });
      });
    } else {
      if (isReference(position, node) && current.parent !== undefined) {
        const ref = node.$ref as string;
        // The document's own pointers stay as written: only what came from other files changes.
        if (current.base !== rootFile || !ref.startsWith('#')) sites.push(current);
      }
      for (const key in node) {
        const child = node[key];
        if (typeof child !== 'object' || child === null || current.walked?.has(key)) continue;
        below.push({
          node: child as Container,
          parent: node,
          trail: { up: current.trail, key },
          position: childPosition(position, key, child, rules),
          base: current.base,
          fileTrail: { up: current.fileTrail, key },
        });
      }
    }
    for (let index = below.length - 1; index >= 0; index -= 1) stack.push(below[index] as Item);
  }
}

function tokensPointer(trail: Trail | undefined): string {
  return tokensOf(trail)
    .map((token) => `/${token.replace(/~/g, '~0').replace(/\//g, '~1')}`)
    .join('');
}

/** A file as problems name it: relative to the document when they share an origin. */
function shownFile(rootFile: string, file: string): string {
  try {
    const root = new URL(rootFile);
    const target = new URL(file);
    if (root.protocol === target.protocol && root.host === target.host) {
      const relative = posix.relative(posix.dirname(root.pathname), target.pathname);
      return decodeURIComponent(relative) || target.pathname;
    }
  } catch {
    // Not URLs: shown as given.
  }
  return redactUrlCredentials(file);
}

function withoutHash(url: string): string {
  const hash = url.indexOf('#');
  return hash === -1 ? url : url.slice(0, hash);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
