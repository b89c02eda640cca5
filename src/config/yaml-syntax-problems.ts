// A YAML syntax error as one line with its place and what to do. The yaml library's own messages
// quote the source (the lines around the error, an escape, a tag), which may hold a password: only
// the error's code and position are taken from it, never its text.
import type { LineCounter, YAMLError } from 'yaml';
import type { ConfigProblem } from '../errors/config-error.js';

type YamlErrorCode = YAMLError['code'];

const WHAT_TO_DO: Record<YamlErrorCode, string> = {
  ALIAS_PROPS: 'an alias (*name) cannot carry an anchor or a tag: remove them',
  BAD_ALIAS: 'an alias (*name) names no anchor (&name) written before it',
  BAD_COLLECTION_TYPE: 'a tag does not fit the value it marks: remove the tag',
  BAD_DIRECTIVE: 'a % directive is not valid: remove it',
  BAD_DQ_ESCAPE:
    'a "double-quoted" value holds an invalid \\ escape: write \\\\ for a backslash, or use single quotes',
  BAD_INDENT:
    'the indentation does not line up: indent with spaces, the keys of one level by the same amount',
  BAD_PROP_ORDER: 'an anchor or tag is out of place: put it after the - or : before the value',
  BAD_SCALAR_START:
    'a value starts with a character YAML reserves (such as @, ` or %): put the value in quotes',
  BLOCK_AS_IMPLICIT_KEY:
    'a mapping where a key or a single value belongs: check the indentation, and quote a value that holds ": "',
  BLOCK_IN_FLOW:
    'a list or mapping written on lines inside [ ] or { }: write it all inside the brackets, or on lines without them',
  DUPLICATE_KEY: 'this key appears twice in the same mapping: keep one',
  IMPOSSIBLE: 'this cannot be read as YAML: check the quotes, brackets and indentation',
  KEY_OVER_1024_CHARS: 'a key longer than 1024 characters: a : after the key is probably missing',
  MISSING_CHAR: 'a closing quote or bracket, or a , or : between items, is missing',
  MULTILINE_IMPLICIT_KEY: 'a key runs over more than one line: a : or a closing quote is probably missing',
  MULTIPLE_ANCHORS: 'a value carries more than one anchor (&name): keep one',
  MULTIPLE_DOCS: 'the file holds more than one YAML document (a second ---): keep one',
  MULTIPLE_TAGS: 'a value carries more than one tag (!tag): keep one',
  NON_STRING_KEY: 'a key is not a plain name: write keys as text, such as branch:',
  RESOURCE_EXHAUSTION: 'too many aliases (*name): write the values out',
  TAB_AS_INDENT: 'a tab is used for indentation: indent with spaces',
  TAG_RESOLVE_FAILED: 'an unknown tag (!tag): remove it, or put the value in quotes',
  UNEXPECTED_TOKEN: 'unexpected characters here: check the quotes, brackets, - and : of this line',
};

/** One problem per line of the file that has errors (the first error of the line), in file order. */
export function yamlSyntaxProblems(errors: readonly YAMLError[], lineCounter: LineCounter): ConfigProblem[] {
  const byLine = new Map<number, ConfigProblem>();
  for (const error of errors) {
    const { line, col } = lineCounter.linePos(error.pos[0]);
    if (byLine.has(line)) continue;
    byLine.set(line, { path: '', message: `YAML: ${yamlErrorHint(error.code)}`, line, column: col });
  }
  return [...byLine.values()].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}

/** What a YAML error code means and how to fix it, without a word of the file's text. */
export function yamlErrorHint(code: YamlErrorCode): string {
  return WHAT_TO_DO[code] ?? WHAT_TO_DO.IMPOSSIBLE;
}
