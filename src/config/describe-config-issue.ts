// A schema problem of the configuration as the lines people read: where it is, what is wrong and
// what to write instead ("did you mean `approvals`?", `true` rather than `yes`).
import type { z } from 'zod';
import type { ConfigProblem } from '../errors/config-error.js';
import { formatZodPath } from '../errors/format-zod-path.js';
import { closestKey } from './closest-key.js';
import { knownKeysAt } from './known-keys.js';

/** The line and column of a key path (of `key` in the mapping at the path, when given). */
export type Locate = (path: readonly PropertyKey[], key?: string) => { line?: number; column?: number };

const UNKNOWN_KEY = 'unknown key: check its spelling against config/docsync.example.yaml';

/** YAML 1.2 reads these as text, where YAML 1.1 (and many a habit) read them as booleans. */
const TRUE_WORDS = new Set(['yes', 'y', 'on', 'true']);
const FALSE_WORDS = new Set(['no', 'n', 'off', 'false']);

export function describeConfigIssue(
  issue: z.core.$ZodIssue,
  locate: Locate,
  schema: z.core.$ZodType,
): ConfigProblem[] {
  if (issue.code === 'unrecognized_keys') {
    const known = knownKeysAt(schema, issue.path);
    return issue.keys.map((key) => ({
      path: formatZodPath([...issue.path, key]),
      message: unknownKeyMessage(key, known),
      ...locate(issue.path, key),
    }));
  }
  let message = issue.message;
  if (issue.code === 'invalid_type') {
    message =
      issue.input === undefined ? requiredMessage(issue.path) : typeMessage(issue.expected, issue.input);
  } else if (issue.code === 'invalid_value') {
    message = `expected one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
  } else if (issue.code === 'invalid_union') {
    message = unionMessage(issue, knownKeysAt(schema, issue.path));
  }
  return [{ path: formatZodPath(issue.path), message, ...locate(issue.path) }];
}

export function unknownKeyMessage(key: string, known: readonly string[]): string {
  const meant = closestKey(key, known);
  return meant === undefined ? UNKNOWN_KEY : `unknown key: did you mean \`${meant}\`?`;
}

function requiredMessage(path: readonly PropertyKey[]): string {
  const key = path[path.length - 1];
  return typeof key === 'string' ? `Required: add \`${key}\`` : 'Required';
}

function typeMessage(expected: string, input: unknown): string {
  const got = `expected ${expected}, got ${describeType(input)}`;
  if (typeof input !== 'string') return got;
  const word = input.trim().toLowerCase();
  if (expected === 'boolean' && (TRUE_WORDS.has(word) || FALSE_WORDS.has(word))) {
    const meant = TRUE_WORDS.has(word) ? 'true' : 'false';
    return `${got}: write ${meant} without quotes (YAML reads yes, no, on, off and quoted values as text)`;
  }
  if ((expected === 'number' || expected === 'int') && word !== '' && Number.isFinite(Number(word)))
    return `${got}: write the number without quotes`;
  return got;
}

/** A union's own message (it names the forms it takes), with a "did you mean" for a key close to one of theirs. */
function unionMessage(issue: z.core.$ZodIssueInvalidUnion, known: readonly string[]): string {
  const typed = new Set(
    issue.errors.flatMap((branch) =>
      branch.flatMap((inner) =>
        inner.code === 'unrecognized_keys' && inner.path.length === 0 ? inner.keys : [],
      ),
    ),
  );
  const hints = [...typed].flatMap((key) => {
    const meant = closestKey(key, known);
    return meant === undefined ? [] : [`\`${key}\`: did you mean \`${meant}\`?`];
  });
  return hints.length === 0 ? issue.message : `${issue.message}; ${hints.join('; ')}`;
}

function describeType(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'a list';
  return typeof input === 'object' ? 'a mapping' : typeof input;
}
