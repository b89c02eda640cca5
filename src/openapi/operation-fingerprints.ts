// What defines each operation of a spec, fingerprinted once per component: every value a `$ref`
// names (a "component": `components/schemas/Pet`, or any other pointer) gets the hash of its own
// text, its refs kept as pointers; an operation gets the hash of its own text and, apart, the hash of
// all components it reaches. Linear in the size of the spec, however its schemas share each other.
import { createHash } from 'node:crypto';
import { type EventLoopSlicer, eventLoopSlicer } from './event-loop-slicer.js';
import { fragmentTokens, valueAt } from './json-pointer.js';
import {
  childPosition,
  isReference,
  itemPosition,
  type Position,
  type PositionRules,
  rulesOf,
} from './openapi-positions.js';

export interface OperationFingerprints {
  /** Operation (`GET /pets/{id}`) → `own.reached`: 16 hex digits each. */
  operations: Record<string, string>;
  /** Component (`components/schemas/Pet`) → the hash of its own text, for each component an operation reaches. */
  components: Record<string, string>;
  /** The components an operation reaches, sorted; only those in `among` when given, which is faster. */
  reachedBy(operation: string, among?: ReadonlySet<string>): readonly string[];
}

/** The operations of a path item, in the order a changelog lists them; `query` is OpenAPI 3.2's. */
export const METHODS = [
  'get',
  'put',
  'post',
  'delete',
  'options',
  'head',
  'patch',
  'trace',
  'query',
] as const;

/** Path item `$ref`s followed at most before the item is taken as it stands. */
const MAX_PATH_ITEM_HOPS = 16;

/** The own text of a component a `$ref` names but that does not exist. */
const MISSING = '\u0000missing';

interface Unit {
  key: string;
  position: Position;
  hash: string;
  refs: string[];
}

export async function operationFingerprints(
  document: Record<string, unknown>,
  options: { signal?: AbortSignal; slicer?: EventLoopSlicer } = {},
): Promise<OperationFingerprints> {
  const slicer = options.slicer ?? eventLoopSlicer(options.signal);
  const rules = rulesOf(document);
  const operations: Array<{ name: string; own: string; refs: string[] }> = [];
  const units = new Map<string, Unit>();
  const pending: Array<{ key: string; position: Position }> = [];
  const discover = (refs: Map<string, Position>) => {
    for (const [key, position] of refs) {
      if (units.has(key)) continue;
      units.set(key, { key, position, hash: '', refs: [] });
      pending.push({ key, position });
    }
  };

  for (const { name, defining } of operationsOf(document)) {
    const refs = new Map<string, Position>();
    operations.push({ name, own: ownHash(defining, 'node', rules, refs), refs: [...refs.keys()] });
    discover(refs);
    if (slicer.due()) await slicer.pause();
  }
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const unit = units.get(next.key) as Unit;
    const target = valueAt(document, tokensOfComponent(next.key));
    const refs = new Map<string, Position>();
    unit.hash = target.found ? ownHash(target.value, next.position, rules, refs) : digest(MISSING);
    unit.refs = [...refs.keys()];
    discover(refs);
    if (slicer.due()) await slicer.pause();
  }

  // Components by name, so that the bits of a set read in sorted order.
  const keys = [...units.keys()].sort();
  const indexOf = new Map(keys.map((key, index) => [key, index]));
  const edges = keys.map((key) => (units.get(key) as Unit).refs.map((ref) => indexOf.get(ref) as number));
  const closures = reachClosures(edges);
  if (slicer.due()) await slicer.pause();

  const result: Record<string, string> = {};
  const reached = new Map<string, readonly number[]>();
  const hashes = keys.map((key) => (units.get(key) as Unit).hash);
  for (const operation of operations) {
    const indexes = closures.union(operation.refs.map((ref) => indexOf.get(ref) as number));
    const hash = createHash('sha256');
    for (const index of indexes) hash.update(`${keys[index]}\u0000${hashes[index]}\n`);
    result[operation.name] = `${operation.own}.${hash.digest('hex').slice(0, 16)}`;
    reached.set(operation.name, indexes);
    if (slicer.due()) await slicer.pause();
  }
  const components: Record<string, string> = {};
  keys.forEach((key, index) => {
    components[key] = hashes[index] as string;
  });
  // Which components are in a set, by index: one array per set asked about, not one lookup per name.
  const masks = new WeakMap<ReadonlySet<string>, Uint8Array>();
  const maskOf = (among: ReadonlySet<string>) => {
    let mask = masks.get(among);
    if (mask === undefined) {
      mask = new Uint8Array(keys.length);
      for (const key of among) {
        const index = indexOf.get(key);
        if (index !== undefined) mask[index] = 1;
      }
      masks.set(among, mask);
    }
    return mask;
  };
  return {
    operations: result,
    components,
    reachedBy: (operation, among) => {
      const indexes = reached.get(operation) ?? [];
      const mask = among === undefined ? undefined : maskOf(among);
      const names: string[] = [];
      for (const index of indexes)
        if (mask === undefined || mask[index] === 1) names.push(keys[index] as string);
      return names;
    },
  };
}

/** Each operation with what defines it: the operation, and its path item's parameters and servers. */
export function* operationsOf(
  document: Record<string, unknown>,
): Generator<{ name: string; defining: unknown }> {
  const paths = document.paths;
  if (!isObject(paths)) return;
  for (const [path, written] of Object.entries(paths)) {
    if (path.startsWith('x-')) continue;
    const item = pathItemOf(document, written);
    if (item === undefined) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      yield {
        name: `${method.toUpperCase()} ${path}`,
        defining: { operation, parameters: item.parameters, servers: item.servers },
      };
    }
  }
}

/** A path item, through its internal `$ref`s if it has any; fields written beside a `$ref` win. */
function pathItemOf(
  document: Record<string, unknown>,
  written: unknown,
): Record<string, unknown> | undefined {
  let item = written;
  for (let hop = 0; hop < MAX_PATH_ITEM_HOPS && isObject(item); hop += 1) {
    const { $ref: ref, ...siblings } = item;
    const tokens = typeof ref === 'string' && ref.startsWith('#') ? fragmentTokens(ref.slice(1)) : undefined;
    const target = tokens === undefined ? undefined : valueAt(document, tokens);
    if (target === undefined || !target.found || !isObject(target.value)) break;
    item = { ...target.value, ...siblings };
  }
  return isObject(item) ? item : undefined;
}

/**
 * sha256 (16 hex digits) of `value` as canonical JSON: keys sorted, so that the order a document
 * is written in does not matter, and internal `$ref`s as their pointer, unescaped, so that two
 * spellings of one pointer are one text. The components they name go into `refs`.
 */
function ownHash(
  value: unknown,
  position: Position,
  rules: PositionRules,
  refs: Map<string, Position>,
): string {
  const hash = createHash('sha256');
  let pending = '';
  const out = (text: string) => {
    pending += text;
    if (pending.length >= 65_536) {
      hash.update(pending);
      pending = '';
    }
  };
  const write = (node: unknown, at: Position): void => {
    if (typeof node !== 'object' || node === null) {
      out(scalarJson(node));
      return;
    }
    if (Array.isArray(node)) {
      const inner = itemPosition(at);
      out('[');
      node.forEach((item, index) => {
        if (index > 0) out(',');
        write(item, inner);
      });
      out(']');
      return;
    }
    const object = node as Record<string, unknown>;
    const reference = isReference(at, object) ? componentOf(object.$ref as string) : undefined;
    if (reference !== undefined && !refs.has(reference)) refs.set(reference, at);
    const keys = Object.keys(object)
      .filter((key) => object[key] !== undefined)
      .sort();
    out('{');
    keys.forEach((key, index) => {
      out(`${index === 0 ? '' : ','}${JSON.stringify(key)}:`);
      const child = object[key];
      if (key === '$ref' && reference !== undefined) out(JSON.stringify(`#/${reference}`));
      else write(child, childPosition(at, key, child, rules));
    });
    out('}');
  };
  write(value, position);
  return hash.update(pending).digest('hex').slice(0, 16);
}

/** The component an internal `$ref` names (`components/schemas/Pet`), or undefined for another ref. */
function componentOf(ref: string): string | undefined {
  if (!ref.startsWith('#')) return undefined;
  const tokens = fragmentTokens(ref.slice(1));
  if (tokens === undefined) return undefined;
  return tokens.map((token) => token.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

function tokensOfComponent(key: string): string[] {
  if (key === '') return [];
  return key.split('/').map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * For a graph given as edges per node, the closure of what nodes reach (themselves included), as
 * bit sets per strongly connected component: schemas that refer to each other share one set.
 */
function reachClosures(edges: readonly (readonly number[])[]): { union(nodes: readonly number[]): number[] } {
  const count = edges.length;
  const words = Math.max(1, Math.ceil(count / 32));
  const { component, components } = stronglyConnected(edges);
  const members: number[][] = Array.from({ length: components }, () => []);
  for (let node = 0; node < count; node += 1) members[component[node] as number]?.push(node);
  const bits = new Uint32Array(components * words);
  // Tarjan numbers components so that a component only reaches lower numbers.
  for (let c = 0; c < components; c += 1) {
    const base = c * words;
    for (const node of members[c] as number[]) {
      bits[base + (node >>> 5)] = (bits[base + (node >>> 5)] as number) | (1 << (node & 31));
      for (const next of edges[node] as number[]) {
        const other = component[next] as number;
        if (other === c) continue;
        const from = other * words;
        for (let word = 0; word < words; word += 1)
          bits[base + word] = (bits[base + word] as number) | (bits[from + word] as number);
      }
    }
  }
  return {
    union(nodes) {
      const set = new Uint32Array(words);
      for (const node of nodes) {
        const from = (component[node] as number) * words;
        for (let word = 0; word < words; word += 1)
          set[word] = (set[word] as number) | (bits[from + word] as number);
      }
      const reached: number[] = [];
      for (let word = 0; word < words; word += 1) {
        let value = set[word] as number;
        while (value !== 0) {
          const low = value & -value;
          reached.push(word * 32 + (31 - Math.clz32(low)));
          value ^= low;
        }
      }
      return reached;
    },
  };
}

/** Tarjan's algorithm, without recursion: each node's component, numbered in reverse topological order. */
function stronglyConnected(edges: readonly (readonly number[])[]): {
  component: Int32Array;
  components: number;
} {
  const count = edges.length;
  const index = new Int32Array(count).fill(-1);
  const low = new Int32Array(count);
  const onStack = new Uint8Array(count);
  const component = new Int32Array(count).fill(-1);
  const stack: number[] = [];
  let nextIndex = 0;
  let components = 0;
  for (let root = 0; root < count; root += 1) {
    if ((index[root] as number) !== -1) continue;
    const frames: Array<{ node: number; edge: number }> = [{ node: root, edge: 0 }];
    index[root] = nextIndex;
    low[root] = nextIndex;
    nextIndex += 1;
    stack.push(root);
    onStack[root] = 1;
    while (frames.length > 0) {
      const frame = frames[frames.length - 1] as { node: number; edge: number };
      const { node } = frame;
      const out = edges[node] as readonly number[];
      if (frame.edge < out.length) {
        const next = out[frame.edge] as number;
        frame.edge += 1;
        if ((index[next] as number) === -1) {
          index[next] = nextIndex;
          low[next] = nextIndex;
          nextIndex += 1;
          stack.push(next);
          onStack[next] = 1;
          frames.push({ node: next, edge: 0 });
        } else if (onStack[next] === 1) low[node] = Math.min(low[node] as number, index[next] as number);
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent !== undefined) low[parent.node] = Math.min(low[parent.node] as number, low[node] as number);
      if (low[node] !== index[node]) continue;
      for (;;) {
        const member = stack.pop() as number;
        onStack[member] = 0;
        component[member] = components;
        if (member === node) break;
      }
      components += 1;
    }
  }
  return { component, components };
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

function scalarJson(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return JSON.stringify(value);
  if (typeof value === 'bigint') return value.toString();
  return 'null';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
