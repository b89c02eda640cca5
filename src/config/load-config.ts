// Reads the YAML file once, at start: parse, interpolate the environment, validate. Every problem
// comes back at once, each with its key path and line, so a broken file is fixed in one pass.
import { readFile } from 'node:fs/promises';
import { type Document, isMap, isScalar, LineCounter, parseDocument, parse as parseYaml } from 'yaml';
import { ConfigError, type ConfigProblem } from '../errors/config-error.js';
import { formatZodPath } from '../errors/format-zod-path.js';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';
import { withConfigEnv } from './config-env.js';
import { CONFIG_PARSE } from './config-parse.js';
import { type Config, configSchema } from './config-schema.js';
import { describeConfigIssue, type Locate } from './describe-config-issue.js';
import { type Env, interpolateEnv } from './interpolate-env.js';
import { claimIssuesOfInput } from './mapping-claims.js';
import { yamlErrorHint, yamlSyntaxProblems } from './yaml-syntax-problems.js';

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
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) throw new ConfigError(file, yamlSyntaxProblems(doc.errors, lineCounter));
  const locate = locator(doc, lineCounter);
  const raw = readDocument(doc, file) ?? {};
  const interpolated = interpolateEnv(raw, env);
  for (const path of interpolated.wholeReferences) retypePlainScalar(doc, interpolated.value, path);

  // A variable that is not set hides nothing else: the rest of the file is checked too, except the
  // keys whose value still holds the reference (their schema problem would only repeat it).
  const problems: ConfigProblem[] = interpolated.problems.map(({ at, ...problem }) => ({
    ...problem,
    ...locate(at),
  }));
  const unresolved = new Set(interpolated.problems.map(({ at }) => formatZodPath(at)));
  const parsed = withConfigEnv(env, () => configSchema.safeParse(interpolated.value, CONFIG_PARSE));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.code !== 'unrecognized_keys' && unresolved.has(formatZodPath(issue.path))) continue;
      problems.push(...describeConfigIssue(issue, locate, configSchema));
    }
    // A mapping with a problem of its own was left out of the checks between mappings: its claim
    // (name, space, branch, folder) may still clash with another's, said now rather than next run.
    const shown = new Set(problems.map((problem) => `${problem.path}\n${problem.message}`));
    for (const { path, message } of claimIssuesOfInput(interpolated.value)) {
      const problem = { path: formatZodPath(path), message, ...locate(path) };
      if (!shown.has(`${problem.path}\n${problem.message}`)) problems.push(problem);
    }
  }
  if (problems.length > 0 || !parsed.success) {
    // Messages may quote a value (a URL that does not parse): never with its credentials.
    throw new ConfigError(
      file,
      problems.map((problem) => ({ ...problem, message: redactUrlCredentials(problem.message) })),
    );
  }
  return parsed.data;
}

/** The document as plain data; an alias bomb is refused rather than expanded. */
function readDocument(doc: Document, file: string): unknown {
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    throw new ConfigError(file, [{ path: '', message: `YAML: ${yamlErrorHint('RESOURCE_EXHAUSTION')}` }], {
      cause: error,
    });
  }
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
