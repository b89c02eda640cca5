// `${VAR}` and `${VAR:-default}` in string values, taken from the environment given. `$${` writes a
// literal `${`. Substitution happens after YAML parsing, so a value can never inject YAML structure.
import type { ConfigProblem } from '../errors/config-error.js';
import { formatZodPath } from '../errors/format-zod-path.js';

const REFERENCE = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;
const WHOLE_REFERENCE = /^\$\{[A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?\}$/;
const MALFORMED = /\$\{(?![A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?\})/;

export type Env = Readonly<Record<string, string | undefined>>;

export interface InterpolationResult {
  value: unknown;
  problems: Array<Omit<ConfigProblem, 'line' | 'column'> & { at: PropertyKey[] }>;
  /** Paths whose whole value was one reference: the loader may read them as YAML scalars (numbers, booleans). */
  wholeReferences: PropertyKey[][];
}

export function interpolateEnv(value: unknown, env: Env): InterpolationResult {
  const result: InterpolationResult = { value: undefined, problems: [], wholeReferences: [] };
  result.value = walk(value, [], env, result);
  return result;
}

function walk(value: unknown, path: PropertyKey[], env: Env, result: InterpolationResult): unknown {
  if (typeof value === 'string') return substitute(value, path, env, result);
  if (Array.isArray(value)) return value.map((item, i) => walk(item, [...path, i], env, result));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, walk(item, [...path, key], env, result)]),
    );
  }
  return value;
}

function substitute(text: string, path: PropertyKey[], env: Env, result: InterpolationResult): string {
  if (!text.includes('${')) return text;
  if (MALFORMED.test(text.replaceAll('$${', ''))) {
    result.problems.push({
      at: path,
      path: formatZodPath(path),
      message: 'malformed reference: write ${NAME} or ${NAME:-default}, and $${ for a literal ${',
    });
    return text;
  }
  if (WHOLE_REFERENCE.test(text)) result.wholeReferences.push(path);
  return text.replace(REFERENCE, (match, name: string | undefined, fallback: string | undefined) => {
    if (name === undefined) return '${';
    const found = env[name];
    if (found !== undefined && found !== '') return found;
    if (fallback !== undefined) return fallback;
    if (found === '') return '';
    result.problems.push({
      at: path,
      path: formatZodPath(path),
      message: `environment variable ${name} is not set: set it, or write \${${name}:-default}`,
    });
    return match;
  });
}
