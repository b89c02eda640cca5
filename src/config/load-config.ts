// Reads the YAML file once, at start: parse, interpolate the environment, validate. Every problem
// comes back at once, each with its key path and line, so a broken file is fixed in one pass.
import { readFile } from 'node:fs/promises';
import { type Document, isMap, isScalar, LineCounter, parseDocument, parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { ConfigError, type ConfigProblem } from '../errors/config-error.js';
import { formatZodPath } from '../errors/format-zod-path.js';
import { type Config, configSchema } from './config-schema.js';
import { type Env, interpolateEnv } from './interpolate-env.js';

export async function loadConfig(file: string, env: Env): Promise<Config> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : 'file cannot be read';
    throw new ConfigError(file, [{ path: '', message: `${reason}: check the path given to --config` }], {
      cause: error,
    });
  }
  return parseConfig(text, file, env);
}

export function parseConfig(text: string, file: string, env: Env): Config {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: true });
  if (doc.errors.length > 0) {
    throw new ConfigError(
      file,
      doc.errors.map((error) => ({
        path: '',
        message: `YAML: ${error.message.split('\n')[0]}`,
        ...(error.linePos ? { line: error.linePos[0].line, column: error.linePos[0].col } : {}),
      })),
    );
  }
  const locate = locator(doc, lineCounter);
  const raw = doc.toJS({ maxAliasCount: 100 }) ?? {};
  const interpolated = interpolateEnv(raw, env);
  if (interpolated.problems.length > 0) {
    throw new ConfigError(
      file,
      interpolated.problems.map(({ at, ...problem }) => ({ ...problem, ...locate(at) })),
    );
  }
  for (const path of interpolated.wholeReferences) retypePlainScalar(doc, interpolated.value, path);

  const parsed = configSchema.safeParse(interpolated.value, { reportInput: true });
  if (!parsed.success) {
    throw new ConfigError(
      file,
      parsed.error.issues.flatMap((issue) => describeIssue(issue, locate)),
    );
  }
  return parsed.data;
}

/** An unquoted `approvals: ${APPROVALS}` reads "2" as the number 2, as YAML would have. */
function retypePlainScalar(doc: Document, root: unknown, path: PropertyKey[]): void {
  const node = doc.getIn(path as unknown[], true);
  if (!isScalar(node) || node.type !== 'PLAIN' || path.length === 0) return;
  const parent = path
    .slice(0, -1)
    .reduce<unknown>((at, key) => (at as Record<PropertyKey, unknown>)[key], root) as Record<
    PropertyKey,
    unknown
  >;
  const key = path[path.length - 1] as PropertyKey;
  const text = parent[key];
  if (typeof text !== 'string') return;
  try {
    const typed: unknown = parseYaml(text);
    if (typeof typed === 'number' || typeof typed === 'boolean' || typed === null) parent[key] = typed;
  } catch {
    // Not a scalar YAML would type: it stays a string.
  }
}

type Locate = (path: readonly PropertyKey[], key?: string) => { line?: number; column?: number };

function locator(doc: Document, lineCounter: LineCounter): Locate {
  return (path, key) => {
    for (let depth = path.length; depth >= 0; depth -= 1) {
      const node =
        doc.getIn(path.slice(0, depth) as unknown[], true) ?? (depth === 0 ? doc.contents : undefined);
      if (node === undefined || node === null) continue;
      let offset = (node as { range?: [number, number, number] }).range?.[0];
      if (key !== undefined && depth === path.length && isMap(node)) {
        const pair = node.items.find((item) => isScalar(item.key) && item.key.value === key);
        offset = (pair?.key as { range?: [number, number, number] } | undefined)?.range?.[0] ?? offset;
      }
      if (offset === undefined) continue;
      const { line, col } = lineCounter.linePos(offset);
      return { line, column: col };
    }
    return {};
  };
}

function describeIssue(issue: z.core.$ZodIssue, locate: Locate): ConfigProblem[] {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({
      path: formatZodPath([...issue.path, key]),
      message: 'unknown key: check its spelling against config/docsync.example.yaml',
      ...locate(issue.path, key),
    }));
  }
  let message = issue.message;
  if (issue.code === 'invalid_type') {
    message =
      issue.input === undefined ? 'Required' : `expected ${issue.expected}, got ${describeType(issue.input)}`;
  } else if (issue.code === 'invalid_value') {
    message = `expected one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
  }
  return [{ path: formatZodPath(issue.path), message, ...locate(issue.path) }];
}

function describeType(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'a list';
  return typeof input === 'object' ? 'a mapping' : typeof input;
}
