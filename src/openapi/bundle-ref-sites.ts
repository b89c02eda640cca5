// Finds, below a value of a document being bundled, the places that name another file: `$ref`s
// where OpenAPI reads references, `$ref`s to other files inside `x-` extensions (code samples,
// as Redocly reads them), and discriminator mappings that name files.
import { posix } from 'node:path';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';
import { fragmentTokens } from './json-pointer.js';
import { OpenApiInvalidError, type OpenApiProblem } from './openapi-invalid-error.js';
import { childKind, itemKind, type Kind } from './openapi-kinds.js';
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

/** A value to look for references in, with where it sits in the bundle and which file it came from. */
export interface Item {
  node: Container;
  parent: Container | undefined;
  trail: Trail | undefined;
  position: Position;
  kind: Kind;
  /** Inside an `x-` extension: data to validators, but a `$ref` to another file is still read. */
  ext: boolean;
  /** The URL of the file the value was written in: its relative `$ref`s resolve against it. */
  base: string;
  /** Where the value is in that file, for problems: the same as `trail` in the document itself. */
  fileTrail: Trail | undefined;
  /** Keys of `node` already walked (siblings of a `$ref` written in another file). */
  walked?: ReadonlySet<string>;
  /** The targets copied above this value: copying one of them again would never end. */
  chain?: ReadonlySet<string>;
}

/** A discriminator mapping's value that names a schema by reference, not by name. */
export interface MappingSite {
  mapping: Record<string, unknown>;
  key: string;
  base: string;
  fileTrail: Trail | undefined;
}

export interface Target {
  file: string;
  fragment: string;
  tokens: string[];
}

/** A mapping value is a reference when it has a fragment, a path, or a JSON/YAML file name. */
function isMappingRef(value: string): boolean {
  return value.includes('#') || value.includes('/') || /\.(ya?ml|json)$/i.test(value);
}

/**
 * Pushes onto `sites` the references below `item` that name another file than `rootFile` (or, in
 * a file other than the document, anything), depth first in key order, and onto `mappings` the
 * discriminator mappings to follow; at most `limit` of both.
 */
export function collect(
  item: Item,
  rules: PositionRules,
  rootFile: string,
  found: { sites: Item[]; mappings: MappingSite[] },
  limit: number,
): void {
  const stack: Item[] = [item];
  while (stack.length > 0 && found.sites.length + found.mappings.length < limit) {
    const current = stack.pop() as Item;
    const { node, position } = current;
    if (position === 'data' && !current.ext) continue;
    const below: Item[] = [];
    if (Array.isArray(node)) {
      const inner = itemPosition(position);
      const kind = itemKind(current.kind);
      node.forEach((child, index) => {
        if (typeof child === 'object' && child !== null)
          below.push(childItem(current, String(index), child as Container, inner, kind, current.ext));
      });
    } else {
      if (isSite(current, rootFile)) found.sites.push(current);
      if (current.kind === 'schema' && !current.ext) collectMapping(current, rootFile, found.mappings);
      for (const key in node) {
        const child = node[key];
        if (typeof child !== 'object' || child === null || current.walked?.has(key)) continue;
        const inner = childPosition(position, key, child, rules);
        const ext =
          current.ext ||
          (inner === 'data' && key.startsWith('x-') && (position === 'node' || position === 'names-x'));
        const kind = ext ? 'other' : childKind(current.kind, key, child, rules);
        below.push(childItem(current, key, child as Container, inner, kind, ext));
      }
    }
    for (let index = below.length - 1; index >= 0; index -= 1) stack.push(below[index] as Item);
  }
}

function childItem(
  parent: Item,
  key: string,
  node: Container,
  position: Position,
  kind: Kind,
  ext: boolean,
): Item {
  return {
    node,
    parent: parent.node,
    trail: { up: parent.trail, key },
    position,
    kind,
    ext,
    base: parent.base,
    fileTrail: { up: parent.fileTrail, key },
    ...(parent.chain === undefined ? {} : { chain: parent.chain }),
  };
}

function isSite(item: Item, rootFile: string): boolean {
  if (item.parent === undefined || Array.isArray(item.node)) return false;
  const ref = item.node.$ref;
  // In an extension, a pointer of the document stays; one of another file is copied from there.
  if (item.ext) return typeof ref === 'string' && (item.base !== rootFile || !ref.startsWith('#'));
  // The document's own pointers stay as written: only what came from other files changes.
  return (
    isReference(item.position, item.node) && (item.base !== rootFile || !(ref as string).startsWith('#'))
  );
}

function collectMapping(item: Item, rootFile: string, mappings: MappingSite[]): void {
  const discriminator = (item.node as Record<string, unknown>).discriminator;
  if (!isPlainObject(discriminator) || !isPlainObject(discriminator.mapping)) return;
  const { mapping } = discriminator;
  for (const [key, value] of Object.entries(mapping)) {
    if (typeof value !== 'string' || !isMappingRef(value)) continue;
    if (item.base === rootFile && value.startsWith('#')) continue;
    const up: Trail = { up: { up: item.fileTrail, key: 'discriminator' }, key: 'mapping' };
    mappings.push({ mapping, key, base: item.base, fileTrail: up });
  }
}

/** Where a reference is written, as a problem names it: its pointer, and its file when not the document. */
export function whereOf(
  site: Pick<Item, 'base' | 'fileTrail'>,
  rootFile: string,
): Pick<OpenApiProblem, 'pointer' | 'file'> {
  const pointer = tokensPointer(site.fileTrail);
  return site.base === rootFile ? { pointer } : { pointer, file: shownFile(rootFile, site.base) };
}

/** The file and the pointer that `ref`, written in the file `site.base`, names. */
export function targetOf(
  ref: string,
  site: Pick<Item, 'base' | 'fileTrail'>,
  rootFile: string,
  label: string,
): Target {
  let url: URL;
  try {
    url = new URL(ref, site.base);
  } catch {
    throw new OpenApiInvalidError(label, [
      {
        ...whereOf(site, rootFile),
        message: `has a $ref ${JSON.stringify(ref)} that is not a URI reference`,
      },
    ]);
  }
  const fragment = url.hash.slice(1);
  const tokens = fragmentTokens(fragment);
  if (tokens === undefined) {
    throw new OpenApiInvalidError(label, [
      {
        ...whereOf(site, rootFile),
        message: `has a $ref ${JSON.stringify(ref)} whose fragment is not a JSON pointer: write #/path/to/the/value`,
      },
    ]);
  }
  return { file: withoutHash(url.href), fragment, tokens };
}

function tokensPointer(trail: Trail | undefined): string {
  return tokensOf(trail)
    .map((token) => `/${token.replace(/~/g, '~0').replace(/\//g, '~1')}`)
    .join('');
}

/** A file as problems name it: relative to the document when they share an origin. */
export function shownFile(rootFile: string, file: string): string {
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

export function withoutHash(url: string): string {
  const hash = url.indexOf('#');
  return hash === -1 ? url : url.slice(0, hash);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
